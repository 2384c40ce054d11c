"""The `# key=value` lines that open a raw.csv (irrbench's metadata), without pandas, so that
light scripts (scripts/simulate) read them as the loader does."""


def parse(lines):
    """(metadata dict, index of the first line after the metadata block)."""
    metadata, n = {}, 0
    while n < len(lines) and (lines[n].startswith("#") or not lines[n].strip()):
        text = lines[n].lstrip("#").strip()
        if "=" in text:
            key, value = text.split("=", 1)
            metadata[key.strip()] = value.strip()
        n += 1
    return metadata, n


def of_file(path):
    """The metadata of the raw.csv at `path` (its opening comment lines only)."""
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not (line.startswith("#") or not line.strip()):
                break
            lines.append(line.rstrip("\n"))
    return parse(lines)[0]
