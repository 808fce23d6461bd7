//! How much memory this process may still take, so a command can refuse (or
//! narrow) work that would end in a failed allocation, an abort that loses
//! everything the run had found.

use std::path::Path;

/// Limits above this are "none" (cgroup v1 writes 2^63 rounded to a page).
const NO_LIMIT: u64 = 1 << 62;

/// The least of: the kernel's estimate of memory available without swapping
/// (`MemAvailable` in `/proc/meminfo`), the room left under this process's
/// memory cgroup (a container's limit, v1 or v2), and the room left under
/// its address-space limit (`ulimit -v`). In bytes; `None` where none can
/// be read (other systems), so callers then go on unchecked.
pub fn available() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    [
        read("/proc/meminfo").and_then(|t| parse_available(&t)),
        read("/proc/self/cgroup").and_then(|t| cgroup_room(&t, Path::new("/sys/fs/cgroup"))),
        read("/proc/self/limits").and_then(|limits| {
            let size = read("/proc/self/status").and_then(|s| parse_vm_size(&s))?;
            Some(parse_address_limit(&limits)?.saturating_sub(size))
        }),
    ]
    .into_iter()
    .flatten()
    .min()
}

fn parse_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let kib: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kib * 1024)
}

/// The room under the memory cgroup that `/proc/self/cgroup` names, its
/// files read under `root`: v2 (`0::PATH`, `memory.max` less
/// `memory.current`) or v1 (`N:memory:PATH`, `memory.limit_in_bytes` less
/// `memory.usage_in_bytes`). A container that hides its cgroup's path sees
/// its own cgroup at the root, which is read when `PATH` is not there.
fn cgroup_room(self_cgroup: &str, root: &Path) -> Option<u64> {
    self_cgroup.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let (dir, limit, usage) = if controllers.is_empty() {
            (root.to_path_buf(), "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                root.join("memory"),
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            )
        } else {
            return None;
        };
        let own = dir.join(path.trim_start_matches('/'));
        let dir = if own.join(limit).exists() { own } else { dir };
        let number = |name: &str| -> Option<u64> {
            std::fs::read_to_string(dir.join(name))
                .ok()?
                .trim()
                .parse()
                .ok()
        };
        let limit = number(limit)?; // "max" does not parse: no limit
        (limit < NO_LIMIT).then(|| limit.saturating_sub(number(usage).unwrap_or(0)))
    })
}

/// The soft "Max address space" of `/proc/self/limits`, in bytes (`None`:
/// unlimited).
fn parse_address_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `VmSize` of `/proc/self/status` (the address space in use), in bytes.
fn parse_vm_size(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmSize:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
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

    #[test]
    fn reads_the_address_space_limit_and_size() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max address space         4096000000           unlimited            bytes     \n";
        assert_eq!(parse_address_limit(limits), Some(4_096_000_000));
        let unlimited = limits.replace("4096000000", "unlimited");
        assert_eq!(parse_address_limit(&unlimited), None);
        assert_eq!(
            parse_vm_size("Name:\tx\nVmSize:\t    3892 kB\n"),
            Some(3892 * 1024)
        );
    }

    #[test]
    fn reads_the_room_under_a_memory_cgroup() {
        let root = tempfile::tempdir().unwrap();
        let write = |dir: &Path, name: &str, text: &str| {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(name), text).unwrap();
        };
        // v2, the process's own cgroup: 4 GB less 1 GB used.
        let own = root.path().join("job");
        write(&own, "memory.max", "4000000000\n");
        write(&own, "memory.current", "1000000000\n");
        assert_eq!(cgroup_room("0::/job\n", root.path()), Some(3_000_000_000));
        // A path the container hides: its cgroup is the root.
        write(root.path(), "memory.max", "max\n");
        assert_eq!(cgroup_room("0::/elsewhere\n", root.path()), None);
        // v1, beside other controllers; 2^63 rounded down is no limit.
        let v1 = root.path().join("memory/api/x");
        write(&v1, "memory.limit_in_bytes", "2000000000\n");
        write(&v1, "memory.usage_in_bytes", "500000000\n");
        let lines = "5:devices:/\n4:memory:/api/x\n0::/\n";
        assert_eq!(cgroup_room(lines, root.path()), Some(1_500_000_000));
        write(&v1, "memory.limit_in_bytes", "9223372036854771712\n");
        assert_eq!(cgroup_room("4:memory:/api/x\n", root.path()), None);
    }
}
