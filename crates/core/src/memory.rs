//! How much memory this machine has free, so a command can refuse (or
//! narrow) work that would end in a failed allocation, an abort that loses
//! everything the run had found.

/// The kernel's estimate of memory available to a new process without
/// swapping (`MemAvailable` in `/proc/meminfo`), in bytes; `None` where it
/// cannot be read (other systems), so callers then go on unchecked.
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_available(&text)
}

fn parse_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let kib: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available_in_bytes() {
        let text =
            "MemTotal:       24592912 kB\nMemFree:         1000 kB\nMemAvailable:   20000000 kB\n";
        assert_eq!(parse_available(text), Some(20_000_000 * 1024));
        assert_eq!(parse_available("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_available("MemAvailable: x kB\n"), None);
        #[cfg(target_os = "linux")]
        assert!(available().is_some_and(|b| b > 0));
    }
}
