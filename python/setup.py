"""Build step of the pe_lab package: the package data is PE Lab's built web component.

The wheel carries web/dist/pe-plot.js (the bundled <pe-plot> element) and web/wasm/pe_simd.wasm
(its kernels), which `bash build.sh` makes at the top of the repository. They are build outputs, not
committed: this step copies them into the wheel (and into pe_lab/static/ of an sdist). PE_LAB_WEB
names another web/ folder (the tests build from a copy of python/ in a temporary folder).

    bash build.sh                                   # at the top of the repository
    pip install --no-build-isolation --no-index ./python
"""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
# (file under web/, name in pe_lab/static/)
STATIC = [("dist/pe-plot.js", "pe-plot.js"), ("wasm/pe_simd.wasm", "pe_simd.wasm")]


def web_dir():
    return os.environ.get("PE_LAB_WEB") or os.path.join(HERE, "..", "web")


def copy_static(dest):
    """Copies the built component into dest (…/pe_lab/static); an sdist's own copy is kept."""
    os.makedirs(dest, exist_ok=True)
    for rel, name in STATIC:
        src = os.path.join(web_dir(), rel)
        out = os.path.join(dest, name)
        if os.path.isfile(src):
            shutil.copyfile(src, out)
        elif not os.path.isfile(out):
            packaged = os.path.join(HERE, "pe_lab", "static", name)
            if not os.path.isfile(packaged):
                raise SystemExit(f"pe_lab: {os.path.abspath(src)} is missing: run `bash build.sh` at the top of the PE Lab repository first")
            shutil.copyfile(packaged, out)


class BuildPy(build_py):
    def run(self):
        super().run()
        copy_static(os.path.join(self.build_lib, "pe_lab", "static"))


class Sdist(sdist):
    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        copy_static(os.path.join(base_dir, "pe_lab", "static"))


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
