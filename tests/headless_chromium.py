"""Headless Chromium for the HTML report tests: the browser's command line, and
the page as the browser built it (its DOM after the load event)."""
import shutil
import subprocess

from conftest import unavailable


def chromium():
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        unavailable("chromium is not installed (apt-get install chromium)")
    return [path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
            "--enable-logging=stderr", "--v=0"]


def dump_dom(page_path):
    """(the DOM Chromium built from the file, its console error lines)."""
    run = subprocess.run(chromium() + ["--dump-dom", page_path.as_uri()], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    errors = [line for line in run.stderr.splitlines() if "CONSOLE" in line and "ERROR" in line.upper()]
    return run.stdout, errors


def screenshot(page_path, png_path, width, height):
    subprocess.run(chromium() + [f"--screenshot={png_path}", f"--window-size={width},{height}", page_path.as_uri()],
                   capture_output=True, timeout=120, check=True)
