//! The server's log line: `[rust nI] 2026/11/27 00:28:29.489744 message`, the Go, C++ and Java
//! servers' format (local wall clock, microseconds), so the nemesis's logs of a mixed cluster
//! can be laid side by side in time (docs/reliability.md, "Rust log lines carry the wall clock").

use std::time::{SystemTime, UNIX_EPOCH};

/// The local civil time of a point `secs` seconds (and `micros`) after the epoch.
pub(crate) struct LocalTime {
    pub(crate) year: i64,
    pub(crate) month: u32,
    pub(crate) day: u32,
    pub(crate) hour: u32,
    pub(crate) minute: u32,
    pub(crate) second: u32,
    pub(crate) micros: u32,
}

impl LocalTime {
    pub(crate) fn now() -> LocalTime {
        let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        Self::at(since.as_secs() as i64, since.subsec_micros())
    }

    /// Through the C library's localtime_r, as Go's and C++'s loggers honour TZ.
    pub(crate) fn at(secs: i64, micros: u32) -> LocalTime {
        let t: libc::time_t = secs as libc::time_t;
        // SAFETY: localtime_r only writes the tm we own; a zeroed tm is a valid value.
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        let ok = unsafe { !libc::localtime_r(&t, &mut tm).is_null() };
        if !ok {
            return LocalTime { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, micros };
        }
        LocalTime {
            year: tm.tm_year as i64 + 1900,
            month: (tm.tm_mon + 1) as u32,
            day: tm.tm_mday as u32,
            hour: tm.tm_hour as u32,
            minute: tm.tm_min as u32,
            second: tm.tm_sec as u32,
            micros,
        }
    }
}

/// One log line, without its newline.
pub(crate) fn log_line(id: u64, at: &LocalTime, message: &str) -> String {
    format!(
        "[rust n{id}] {:04}/{:02}/{:02} {:02}:{:02}:{:02}.{:06} {message}",
        at.year, at.month, at.day, at.hour, at.minute, at.second, at.micros
    )
}

/// Writes one line to stderr, stamped now.
pub(crate) fn log(id: u64, message: &str) {
    write_stderr(&log_line(id, &LocalTime::now(), message));
}

/// Writes one line to stderr and ignores a failure: `eprintln!` panics when the reader has
/// gone (EPIPE, a parent that died), and a panic in the stop-signal thread left the server
/// deaf to SIGTERM.
pub(crate) fn write_stderr(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_lines_carry_the_wall_clock_like_the_other_servers() {
        let at = LocalTime { year: 2026, month: 11, day: 27, hour: 0, minute: 12, second: 28, micros: 123_456 };
        assert_eq!(log_line(2, &at, "status {}"), "[rust n2] 2026/11/27 00:12:28.123456 status {}");
    }

    #[test]
    fn local_time_keeps_the_seconds_and_micros() {
        // 2026-11-27 00:12:28 UTC; every zone's offset is whole minutes, so the seconds stay
        let t = LocalTime::at(1_795_738_348, 7);
        assert_eq!((t.second, t.micros), (28, 7));
        let now = LocalTime::now();
        assert!(now.year >= 2024 && (1..=12).contains(&now.month) && (1..=31).contains(&now.day));
    }
}
