// The rope views, in the order the page shows them (registered in web/views/index.js).
export default [];
