"""OpenBench's own server (Django's runserver on 127.0.0.1) with one function
replaced, for machines that cannot reach GitHub's API.

    python3 openbench_offline_server.py OPENBENCH_DIR PORT SOURCES_JSON

When a workload is created, OpenBench's verify_workload.collect_github_info
asks api.github.com for the commit a branch names and its message, and
builds the zipball URL the clients download. Here the same answer comes
from SOURCES_JSON ({branch: {"sha", "source", "message"}}, written by the
test): the bench is still read by OpenBench's determine_bench and the info
line by its strip_message. Everything else is OpenBench, unchanged.
"""
import json
import os
import sys


def main() -> None:
    root, port, sources_file = sys.argv[1:4]
    os.chdir(root)
    sys.path.insert(0, root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "OpenSite.settings")
    import django
    django.setup()
    import OpenBench.views  # noqa: F401  (imports the workload modules in the order they expect)
    import OpenBench.workloads.verify_workload as verify

    def collect_local_info(errors, request, field):
        branch = request.POST[f"{field}_branch"]
        with open(sources_file) as handle:
            sources = json.load(handle)
        if branch not in sources:
            errors.append(f"{branch or 'Branch'} could not be found")
            return None
        entry = sources[branch]
        bench = verify.determine_bench(request, field, entry["message"])
        if not bench:
            errors.append(f"Unable to parse a Bench for {branch}")
            return None
        info = request.POST["info"] or verify.strip_message(entry["message"])
        return (entry["source"], branch, entry["sha"], bench, info)

    verify.collect_github_info = collect_local_info
    from django.core.management import execute_from_command_line
    execute_from_command_line(["manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"])


if __name__ == "__main__":
    main()
