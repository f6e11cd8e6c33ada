"""The level files' boards for the scripts here, without the crate: an XSB file read as blocks
of consecutive board lines (only `# $ . @ * + - _` and spaces, with at least one `#`)."""

BOARD = set(" #$.@*+-_")


def parse_levels(path):
    """The boards of the file at `path`, each a list of its rows."""
    levels, cur = [], []
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\r\n")
        if line.strip() and set(line) <= BOARD and "#" in line:
            cur.append(line.rstrip())
        else:
            if cur:
                levels.append(cur)
            cur = []
    if cur:
        levels.append(cur)
    return levels
