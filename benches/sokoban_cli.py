"""What the bench scripts share about the `sokoban` binary they run."""
import functools
import subprocess


@functools.lru_cache(maxsize=None)
def one_thread(binary):
    """`["--threads", "1"]` for a build that has --threads (whose `solve` otherwise uses every
    core, and then is not deterministic under a node limit), `[]` for an older build."""
    text = subprocess.run([binary, "solve", "--help"], capture_output=True, text=True).stdout
    return ["--threads", "1"] if "--threads" in text else []
