#!/usr/bin/env python3
"""Runs `certpath batch` as the per-partition worker of a Dask distributed cluster (README,
"Beyond one machine"; docs/CLI.md, "batch on a cluster").

The corpus is JSON lines as `certpath batch` reads them (one chain a line). Dask splits it into
byte ranges cut at line ends (dask.bag.read_text, so paths may be local, NFS, or any fsspec URL
the workers can read); each partition is piped through one `certpath batch` process on a worker;
the driver writes the results in input order with the line numbers of the whole corpus, so the
output is byte for byte what one `certpath batch --at TIME` over the whole corpus prints.

  scripts/distributed-batch.py CORPUS.jsonl... --certpath PATH --anchors root.pem [--at TIME]
      [--scheduler tcp://HOST:8786 | --local-workers N] [--blocksize 16MiB] [--output FILE]
      [-- extra certpath batch options]

Without --scheduler a LocalCluster of --local-workers processes (one thread each) is started.
Every worker must be able to run --certpath and read the --anchors files at the same paths. The
validation time is fixed once by the driver (--at, default now) and given to every partition, so a
chain is judged at the same instant wherever it runs. Exit status as `certpath batch`: 0 every
line trusted, 1 some line untrusted or in error, 2 usage error or a worker failure.
"""
import argparse
import datetime
import subprocess
import sys


def run_partition(lines, command):
    """One partition (its lines) through `certpath batch`, on a worker: [(output text, exit status)]."""
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    if not text:
        return [("", 0)]
    done = subprocess.run(command, input=text.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError("certpath batch exited %d: %s" % (done.returncode, done.stderr.decode(errors="replace").strip()))
    return [(done.stdout.decode(), done.returncode)]


PREFIX = '"line":'


def renumbered(output, offset):
    """The partition's result lines with "line" counted from the corpus start: each result line's first
    `"line":N` member (it follows the fixed "format" and "version" members) becomes N + offset."""
    out = []
    lines = output.splitlines(keepends=True)
    for text in lines:
        at = text.index(PREFIX) + len(PREFIX)
        end = at
        while text[end].isdigit():
            end += 1
        out.append(text[:at] + str(int(text[at:end]) + offset) + text[end:])
    return "".join(out), len(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="+", help="JSON-lines files (or fsspec URLs, globs) in order")
    parser.add_argument("--certpath", required=True, help="the certpath executable, at this path on every worker")
    parser.add_argument("--anchors", action="append", default=[], help="trust anchors for every line (repeatable)")
    parser.add_argument("--at", help="validation time, RFC 3339 (default: now, fixed once for every partition)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)")
    parser.add_argument("--local-workers", type=int, default=2, help="worker processes of the LocalCluster (default 2)")
    parser.add_argument("--blocksize", default="16MiB", help="partition size in bytes of input (default 16MiB)")
    parser.add_argument("--output", help="write the results here (default: standard output)")
    # After `--`: more `certpath batch` options (--profile, --strict-eku...), given to every worker.
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    options = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)

    import dask.bag
    from distributed import Client, LocalCluster

    at = options.at or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    command = [options.certpath, "batch", "--at", at]
    for anchors in options.anchors:
        command += ["--anchors", anchors]
    command += extra

    if options.scheduler:
        client, cluster = Client(options.scheduler), None
    else:
        cluster = LocalCluster(n_workers=options.local_workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=40)
        client = Client(cluster)
    out = open(options.output, "w") if options.output else sys.stdout
    status = 0
    try:
        corpus = dask.bag.read_text(options.corpus, blocksize=options.blocksize)
        partitions = corpus.map_partitions(run_partition, command).to_delayed()
        # A bounded window of partitions in flight: memory stays flat however long the corpus.
        window = max(2, 2 * len(client.scheduler_info()["workers"]))
        futures = []
        offset = 0
        next_partition = 0
        while next_partition < len(partitions) or futures:
            while next_partition < len(partitions) and len(futures) < window:
                futures.append(client.compute(partitions[next_partition]))
                next_partition += 1
            [(text, code)] = futures.pop(0).result()
            text, count = renumbered(text, offset)
            offset += count
            status = max(status, code)
            out.write(text)
    except Exception as error:  # a worker's RuntimeError comes back re-raised by Dask
        print("distributed-batch: %s" % error, file=sys.stderr)
        status = 2
    finally:
        if out is not sys.stdout:
            out.close()
        client.close()
        if cluster is not None:
            cluster.close()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
