//! What the library asks of the machine it runs on: the physical memory, for default limits.
//!
//! The default memory limit of a search is a share of the physical memory (half, as YASS does),
//! so a small machine does not swap and a big one is used. On Linux the size comes from
//! `/proc/meminfo`; elsewhere, or when it cannot be read, a fixed fallback is used.

/// The share of physical memory a search may use by default: one half.
pub const DEFAULT_MEMORY_SHARE: (u64, u64) = (1, 2);

/// The physical memory assumed when it cannot be read: 8 GiB (so the default limit is 4 GiB).
pub const FALLBACK_PHYSICAL_MEMORY: u64 = 8 << 30;

/// The machine's physical memory in bytes (`MemTotal` of `/proc/meminfo` on Linux), or `None`
/// when it cannot be read.
pub fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_total(&text)
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line["MemTotal:".len()..].split_whitespace();
    let value: u64 = words.next()?.parse().ok()?;
    let unit = match words.next().map(str::to_ascii_lowercase).as_deref() {
        Some("kb") => 1 << 10,
        Some("mb") => 1 << 20,
        Some("gb") => 1 << 30,
        None => 1,
        Some(_) => return None,
    };
    value.checked_mul(unit).filter(|&b| b > 0)
}

/// The default memory limit of one search in bytes: half the physical memory, or half of
/// [`FALLBACK_PHYSICAL_MEMORY`] when that cannot be read. At least 64 MiB.
pub fn default_memory_limit() -> usize {
    let total = physical_memory().unwrap_or(FALLBACK_PHYSICAL_MEMORY);
    let (num, den) = DEFAULT_MEMORY_SHARE;
    let share = (total / den).saturating_mul(num).max(64 << 20);
    usize::try_from(share).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_total() {
        let text = "MemTotal:       16318412 kB\nMemFree:         1234 kB\n";
        assert_eq!(mem_total(text), Some(16318412 * 1024));
        assert_eq!(mem_total("MemFree: 1 kB\n"), None);
        assert_eq!(mem_total("MemTotal: x kB\n"), None);
        assert_eq!(mem_total("MemTotal: 0 kB\n"), None);
        assert_eq!(mem_total("MemTotal: 18446744073709551615 kB\n"), None);
    }

    #[test]
    fn default_limit_is_half_the_machine() {
        let limit = default_memory_limit() as u64;
        match physical_memory() {
            Some(total) => assert_eq!(limit, (total / 2).max(64 << 20)),
            None => assert_eq!(limit, FALLBACK_PHYSICAL_MEMORY / 2),
        }
    }
}
