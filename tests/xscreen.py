"""A virtual X screen for the GUI tests: Xvfb, keys typed with xdotool,
screenshots with ImageMagick's `import`.

The GUIs run in their own process group, so that closing one also ends the
engines it started (they inherit the group).
"""
import contextlib
import os
import select
import signal
import subprocess
import time

from conftest import REPO, require_program

ARTIFACTS = REPO / "tests" / "artifacts" / "gui"


class Screen:
    def __init__(self, display):
        self.display = display
        self.xdotool = require_program("xdotool", "xdotool")
        self.importer = require_program("import", "imagemagick")

    def env(self, **extra):
        return dict(os.environ, DISPLAY=self.display, **extra)

    def _xdotool(self, *args, check=True):
        result = subprocess.run([self.xdotool, *args], env=self.env(), capture_output=True, text=True,
                                timeout=30)
        if check and result.returncode:
            raise RuntimeError(f"xdotool {' '.join(args)}: {result.stderr.strip()}")
        return result.stdout.strip()

    def find_window(self, title_regex, timeout=60):
        """The id of the first visible window whose title matches, waiting for it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self._xdotool("search", "--onlyvisible", "--name", title_regex, check=False)
            if found:
                return found.split()[0]
            time.sleep(0.3)
        raise TimeoutError(f"no window titled /{title_regex}/ within {timeout} s")

    def title(self, window):
        return self._xdotool("getwindowname", window, check=False)

    def resize(self, window, width, height):
        self._xdotool("windowsize", window, str(width), str(height))

    def move(self, window, x, y):
        self._xdotool("windowmove", window, str(x), str(y))

    def drag(self, x1, y, x2):
        """Drags with the mouse along a row, from x1 to x2 (a splitter, say)."""
        self._xdotool("mousemove", str(x1), str(y))
        time.sleep(0.3)
        self._xdotool("mousedown", "1")
        for x in (x1 + (x2 - x1) // 2, x2):    # a few motion events; each one relays the window out
            self._xdotool("mousemove", str(x), str(y))
            time.sleep(0.3)
        self._xdotool("mouseup", "1")

    def keys(self, window, *keys):
        """Focus the window (there is no window manager to do it), then press the keys."""
        self._xdotool("windowfocus", "--sync", window)
        for key in keys:
            self._xdotool("key", "--clearmodifiers", key)
            time.sleep(0.15)    # let the GUI react (open a dialog, move focus)

    def screenshot(self, name):
        """Saves the whole screen as tests/artifacts/gui/NAME.png and returns the path."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        subprocess.run([self.importer, "-window", "root", str(path)], env=self.env(), check=True, timeout=60)
        return path

    @contextlib.contextmanager
    def shot_on_failure(self, name):
        """A screenshot NAME-failed.png of what the screen showed when the block failed."""
        (ARTIFACTS / f"{name}-failed.png").unlink(missing_ok=True)     # not one from an earlier run
        try:
            yield
        except BaseException:
            with contextlib.suppress(Exception):
                self.screenshot(f"{name}-failed")
            raise


@contextlib.contextmanager
def virtual_screen(size="1280x900"):
    """Starts Xvfb on a free display (it picks the number itself and reports it on a pipe)."""
    xvfb = require_program("Xvfb", "xvfb")
    read_end, write_end = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write_end), "-screen", "0", f"{size}x24",
                               "-nolisten", "tcp"], pass_fds=(write_end,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    try:
        ready, _, _ = select.select([read_end], [], [], 30)
        number = os.read(read_end, 16).decode().strip() if ready else ""
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield Screen(f":{number}")
    finally:
        os.close(read_end)
        server.terminate()
        server.wait(timeout=30)


@contextlib.contextmanager
def gui_process(args, env, log_path):
    """Runs a GUI in its own process group; on exit ends the group (the GUI and its engines)."""
    with open(log_path, "w") as log:
        process = subprocess.Popen(args, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            yield process
        finally:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, sig)
                try:
                    process.wait(timeout=10)
                    break
                except subprocess.TimeoutExpired:
                    continue
