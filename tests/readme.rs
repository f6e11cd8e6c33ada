//! Runs the command lines of README.md (filled in by a later commit).
