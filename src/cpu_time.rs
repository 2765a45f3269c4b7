//! CPU seconds of this process or of the calling thread, read from /proc (Linux): what run
//! reports, progress lines and results record as their cost.

/// CPU seconds (user + system) of this process so far, from /proc/self/stat
/// (Linux); `None` elsewhere.
pub fn process_cpu_seconds() -> Option<f64> {
    cpu_seconds_in("/proc/self/stat")
}

/// CPU seconds (user + system) of the calling thread so far, from
/// /proc/thread-self/stat (Linux); `None` elsewhere.
pub fn thread_cpu_seconds() -> Option<f64> {
    cpu_seconds_in("/proc/thread-self/stat")
}

/// Fields 14 and 15 (utime, stime) of a `stat` file of /proc, in seconds.
fn cpu_seconds_in(path: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(path).ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let (user, system): (f64, f64) = (fields.get(11)?.parse().ok()?, fields.get(12)?.parse().ok()?);
    Some((user + system) / 100.0) // USER_HZ is 100 on Linux
}
