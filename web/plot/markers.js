// Vertical markers on a line plot: a dashed line at an x, with its label on a plate at the top
// of the plotting area (beside the line, on the side with room). Drawn by LinePlot.setMarkers
// over the curves; `g` is the drawing surface a LinePlot overlay gets (ctx, area, x(), font).

/**
 * @param {{ ctx: CanvasRenderingContext2D, area: { left, top, right, bottom }, x: (v: number) => number, font: string }} g
 * @param {{ x: number, label: string, color: string, plate: string, dash?: number[] }[]} marks
 */
export function drawMarkers(g, marks) {
  if (!marks.length) return;
  const { ctx, area: a } = g;
  ctx.save();
  ctx.font = `12px ${g.font}`;
  ctx.textBaseline = 'top';
  for (const m of marks) {
    const x = g.x(m.x);
    if (!(x >= a.left && x <= a.right)) continue;
    ctx.strokeStyle = m.color;
    ctx.setLineDash(m.dash ?? [5, 4]);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x, a.top);
    ctx.lineTo(x, a.bottom);
    ctx.stroke();
    ctx.setLineDash([]);
    const label = m.label ?? '';
    if (!label) continue;
    const w = ctx.measureText(label).width;
    const left = x + 4 + w > a.right ? x - 4 - w : x + 4;
    ctx.fillStyle = m.plate;
    ctx.fillRect(left - 2, a.top + 2, w + 4, 16);
    ctx.fillStyle = m.color;
    ctx.fillText(label, left, a.top + 4);
  }
  ctx.restore();
}
