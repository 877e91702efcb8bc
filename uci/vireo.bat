@echo off
rem Vireo UCI launcher for Windows GUIs (Arena, Cute Chess, BanksiaGUI):
rem point the GUI at this file. It runs "python -m engine", which speaks UCI.
rem Which Python: %VIREO_PYTHON% if set, else the checkout's .venv, else
rem "python" from PATH. From a source checkout whose core was built in place
rem (src\engine\_core*.pyd) it puts src\ on PYTHONPATH; otherwise that Python
rem must have Vireo installed (pip install .).
setlocal
set "ROOT=%~dp0.."
if defined VIREO_PYTHON (
    set "PY=%VIREO_PYTHON%"
) else if exist "%ROOT%\.venv\Scripts\python.exe" (
    set "PY=%ROOT%\.venv\Scripts\python.exe"
) else (
    set "PY=python"
)
if exist "%ROOT%\src\engine\_core*.pyd" set "PYTHONPATH=%ROOT%\src;%PYTHONPATH%"
"%PY%" -m engine %*
