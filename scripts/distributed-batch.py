#!/usr/bin/env python3
"""Runs `certpath batch` as the per-partition worker of a Dask distributed cluster (README,
"Beyond one machine"; docs/CLI.md, "batch on a cluster").

The corpus is JSON lines as `certpath batch` reads them (one chain a line). Dask splits it into
byte ranges cut at line ends (dask.bag.read_text, so paths may be local, NFS, or any fsspec URL
the workers can read); each partition is piped through one `certpath batch` process on a worker;
a first pass counts each partition's lines, so each worker numbers its results as one process over
the whole corpus would (`--first-line`), and the driver writes them in input order: the output is
byte for byte what one `certpath batch --at TIME` over the whole corpus prints.

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


def count_lines(lines):
    """A partition's line count, on a worker (the first pass: where each partition's numbers start)."""
    return [len(lines)]


def run_partition(lines, command):
    """One partition (its lines) through `certpath batch`, on a worker: (output bytes, exit status)."""
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    if not text:
        return b"", 0
    done = subprocess.run(command, input=text.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError("certpath batch exited %d: %s" % (done.returncode, done.stderr.decode(errors="replace").strip()))
    return done.stdout, done.returncode


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

    import dask
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
    out = open(options.output, "wb") if options.output else sys.stdout.buffer
    status = 0
    try:
        corpus = dask.bag.read_text(options.corpus, blocksize=options.blocksize)
        # First pass: each partition's line count, so that each worker numbers its lines as one
        # process over the whole corpus would (`certpath batch --first-line`); the driver then only
        # concatenates.
        counts = corpus.map_partitions(count_lines).compute()
        partitions = corpus.to_delayed()
        firsts = [1]
        for count in counts[:-1]:
            firsts.append(firsts[-1] + count)
        # A bounded window of partitions in flight: memory stays flat however long the corpus.
        window = max(2, 2 * len(client.scheduler_info()["workers"]))
        futures = []
        next_partition = 0
        while next_partition < len(partitions) or futures:
            while next_partition < len(partitions) and len(futures) < window:
                task = dask.delayed(run_partition)(partitions[next_partition],
                                                   command + ["--first-line", str(firsts[next_partition])])
                futures.append(client.compute(task))
                next_partition += 1
            text, code = futures.pop(0).result()
            status = max(status, code)
            out.write(text)
    except Exception as error:  # a worker's RuntimeError comes back re-raised by Dask
        print("distributed-batch: %s" % error, file=sys.stderr)
        status = 2
    finally:
        if out is not sys.stdout.buffer:
            out.close()
        client.close()
        if cluster is not None:
            cluster.close()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
