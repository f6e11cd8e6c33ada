"""What the bench scripts share about the `sokoban` binary they run."""
import functools
import subprocess


def one_thread(binary, given=()):
    """`["--threads", "1"]` for a build that has --threads (whose `solve` otherwise uses every
    core, and then is not deterministic under a node limit), `[]` for an older build or when
    the options `given` already say how many threads."""
    return ["--threads", "1"] if has_threads(binary) and "--threads" not in given else []


@functools.lru_cache(maxsize=None)
def has_threads(binary):
    """Whether the build's `solve` has --threads."""
    text = subprocess.run([binary, "solve", "--help"], capture_output=True, text=True).stdout
    return "--threads" in text
