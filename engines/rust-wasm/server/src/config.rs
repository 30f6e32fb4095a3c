//! The server's command line and configuration file (docs/protocol.md, "Native servers").

use replicant_core::json::{parse_json, JsonValue};
use std::net::{SocketAddr, ToSocketAddrs};
use std::process::exit;

/// Ends the process on a bad start (a flag, the configuration file, an address that cannot be
/// bound, the data directory): a message naming the problem, status 2.
pub fn die(msg: &str) -> ! {
    crate::log_line::write_stderr(&format!("replicant-server: {msg}"));
    exit(2);
}

pub struct Args {
    pub config_path: String,
    pub id: u64,
    pub threads: Option<usize>,
    pub verbose: bool,
    pub stats_every_s: Option<u64>,
    /// Seed of the election-timeout jitter; the id + 1 unless given (as the Go server does).
    pub seed: Option<u64>,
    /// Durability log with its write-ahead log in this directory (none without it).
    pub data_dir: Option<String>,
    /// always (default) or never.
    pub fsync: String,
    /// Durability log: a checkpoint (snapshot file, log truncated) every this many executed
    /// instances; 0 never (docs/protocol.md, "Compaction").
    pub snapshot_every: u64,
    /// The core's log bound (docs/protocol.md, "Log bound"); 0 lets the log grow while a peer
    /// is silent.
    pub log_bound: u64,
    /// How often the status line is logged, in ms (10 to 60,000; default once a second).
    pub status_interval_ms: u64,
    /// Tests only: the reset-peer command on the client port is on (docs/protocol.md).
    pub test_peer_reset: bool,
}

pub const USAGE: &str =
    "usage: replicant-server [--config] CONFIG.json --id N [--seed N] [--threads N] [--verbose] [--stats-every SECONDS] [--data-dir DIR [--fsync always|interval|never] [--snapshot-every N]] [--log-bound N] [--status-interval-ms N] [--test-peer-reset]";

pub fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut config_path = None;
    let mut id = None;
    let mut threads = None;
    let mut verbose = false;
    let mut stats_every_s = None;
    let mut seed = None;
    let mut data_dir = None;
    let mut fsync = "always".to_string();
    let mut snapshot_every = replicant_core::config::SERVER_SNAPSHOT_EVERY;
    let mut log_bound = replicant_core::config::SERVER_LOG_BOUND;
    let mut status_interval_ms = crate::limits::STATUS_INTERVAL.as_millis() as u64;
    let mut test_peer_reset = false;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--id" => {
                let v = value("--id")?;
                id = Some(v.parse::<u64>().map_err(|_| format!("bad id {v:?}: not a non-negative integer"))?);
            }
            "--config" => config_path = Some(value("--config")?),
            "--threads" => threads = Some(whole("--threads", &value("--threads")?, 1..=usize::MAX as u64, "")? as usize),
            "--stats-every" => stats_every_s = Some(whole("--stats-every", &value("--stats-every")?, 1..=u64::MAX, "")?),
            "--seed" => {
                let range = 0..=replicant_core::json::MAX_SAFE_INT;
                seed = Some(whole("--seed", &value("--seed")?, range, ": an integer below 2^53")?);
            }
            "--data-dir" => data_dir = Some(value("--data-dir")?),
            "--fsync" => fsync = value("--fsync")?,
            "--log-bound" => log_bound = whole("--log-bound", &value("--log-bound")?, 0..=1_000_000, ": between 0 and 1000000")?,
            "--status-interval-ms" => {
                status_interval_ms = whole("--status-interval-ms", &value("--status-interval-ms")?, 10..=60_000, ": between 10 and 60000")?
            }
            "--snapshot-every" => {
                snapshot_every = whole("--snapshot-every", &value("--snapshot-every")?, 0..=1_000_000, ": between 0 and 1000000")?
            }
            "--verbose" | "-v" => verbose = true,
            "--test-peer-reset" => test_peer_reset = true,
            "--help" | "-h" => return Err(USAGE.to_string()),
            s if s.starts_with("--id=") => {
                let v = &s[5..];
                id = Some(v.parse::<u64>().map_err(|_| format!("bad id {v:?}: not a non-negative integer"))?);
            }
            s if !s.starts_with('-') && config_path.is_none() => config_path = Some(s.to_string()),
            s => return Err(format!("unknown argument {s:?}\n{USAGE}")),
        }
    }
    let config_path = config_path.ok_or_else(|| format!("no configuration file given\n{USAGE}"))?;
    let id = id.ok_or_else(|| format!("no --id given\n{USAGE}"))?;
    Ok(Args { config_path, id, threads, verbose, stats_every_s, seed, data_dir, fsync, snapshot_every, log_bound, status_interval_ms, test_peer_reset })
}

/// A flag's value as a whole number in `range`; otherwise "bad FLAG VALUE" and `rule`.
fn whole(flag: &str, v: &str, range: std::ops::RangeInclusive<u64>, rule: &str) -> Result<u64, String> {
    v.parse::<u64>().ok().filter(|n| range.contains(n)).ok_or_else(|| format!("bad {flag} {v:?}{rule}"))
}

/// The cluster configuration file.
pub struct ServerConfig {
    pub commit_interval_ms: u64,
    /// Optional in the file, true when absent; false is the paper's mode.
    pub check_quorum: bool,
    pub peers: Vec<SocketAddr>,
    pub clients: Vec<SocketAddr>,
}

fn addresses(v: &JsonValue<'_>, field: &str) -> Result<Vec<SocketAddr>, String> {
    let JsonValue::Array(items) = v else {
        return Err(format!("{field} must be an array of \"host:port\" strings"));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let JsonValue::String(s) = item else {
                return Err(format!("{field}[{i}] must be a \"host:port\" string"));
            };
            let s = String::from_utf8_lossy(s);
            s.to_socket_addrs()
                .ok()
                .and_then(|mut a| a.next())
                .ok_or_else(|| format!("{field}[{i}] = {s:?} is not a usable address"))
        })
        .collect()
}

/// Reads and checks the configuration (strictly: unknown fields are errors).
pub fn parse_config(text: &[u8]) -> Result<ServerConfig, String> {
    let v = parse_json(text).map_err(|_| "not valid JSON".to_string())?;
    let JsonValue::Object(fields) = v else { return Err("not a JSON object".to_string()) };
    let mut commit_interval_ms = 150;
    let mut check_quorum = true;
    let (mut peers, mut clients) = (None, None);
    for (name, value) in &fields {
        match name.as_ref() {
            b"commit_interval_ms" => match value {
                JsonValue::Number(n) if (1..=60_000).contains(n) => commit_interval_ms = *n,
                _ => return Err("commit_interval_ms must be an integer between 1 and 60000".to_string()),
            },
            b"check_quorum" => match value {
                JsonValue::Bool(b) => check_quorum = *b,
                _ => return Err("check_quorum must be true or false".to_string()),
            },
            b"peers" => peers = Some(addresses(value, "peers")?),
            b"clients" => clients = Some(addresses(value, "clients")?),
            other => return Err(format!("unknown field {:?}", String::from_utf8_lossy(other))),
        }
    }
    let peers = peers.ok_or("peers is missing")?;
    let clients = clients.ok_or("clients is missing")?;
    if peers.is_empty() || peers.len() > replicant_core::MAX_NUM_PEERS as usize {
        return Err("peers must list between 1 and 15 addresses".to_string());
    }
    if clients.len() != peers.len() {
        return Err(format!("clients lists {} addresses, peers {}: one each per node", clients.len(), peers.len()));
    }
    Ok(ServerConfig { commit_interval_ms, check_quorum, peers, clients })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_config() {
        let c = parse_config(
            br#"{"commit_interval_ms":20,"peers":["127.0.0.1:10000","127.0.0.1:10010"],"clients":["127.0.0.1:10001","127.0.0.1:10011"]}"#,
        )
        .unwrap();
        assert_eq!(c.commit_interval_ms, 20);
        assert_eq!(c.peers[1], "127.0.0.1:10010".parse().unwrap());
        assert_eq!(c.clients.len(), 2);
        let c = parse_config(br#"{"peers":["127.0.0.1:1"],"clients":["127.0.0.1:2"]}"#).unwrap();
        assert_eq!(c.commit_interval_ms, 150);
    }

    #[test]
    fn bad_configs() {
        for (text, why) in [
            ("", "not valid JSON"),
            ("[]", "not a JSON object"),
            (r#"{"peers":["127.0.0.1:1"]}"#, "clients is missing"),
            (r#"{"peers":["127.0.0.1:1"],"clients":[]}"#, "one each"),
            (r#"{"peers":[],"clients":[]}"#, "between 1 and 15"),
            (r#"{"peers":["nowhere"],"clients":["127.0.0.1:2"]}"#, "not a usable address"),
            (r#"{"peers":["127.0.0.1:99999"],"clients":["127.0.0.1:2"]}"#, "not a usable address"),
            (r#"{"peers":[1],"clients":["127.0.0.1:2"]}"#, "string"),
            (r#"{"peers":["127.0.0.1:1"],"clients":["127.0.0.1:2"],"commit_interval_ms":0}"#, "commit_interval_ms"),
            (r#"{"peers":["127.0.0.1:1"],"clients":["127.0.0.1:2"],"x":1}"#, "unknown field"),
        ] {
            let err = parse_config(text.as_bytes()).err().unwrap_or_else(|| panic!("{text} accepted"));
            assert!(err.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn args() {
        let a = parse_args(["c.json", "--id", "2", "--verbose"].map(String::from).into_iter()).unwrap();
        assert_eq!((a.config_path.as_str(), a.id, a.verbose), ("c.json", 2, true));
        let a = parse_args(["--config", "c.json", "--id=1", "--threads", "2"].map(String::from).into_iter()).unwrap();
        assert_eq!((a.id, a.threads, a.seed), (1, Some(2), None));
        let a = parse_args(["c.json", "--id", "0", "--seed", "42"].map(String::from).into_iter()).unwrap();
        assert_eq!(a.seed, Some(42));
        assert!(parse_args(["c.json", "--id", "0", "--seed", "9007199254740992"].map(String::from).into_iter()).is_err());
        assert!(parse_args(["c.json"].map(String::from).into_iter()).is_err());
        assert!(parse_args(["c.json", "--id", "x"].map(String::from).into_iter()).is_err());
        assert!(parse_args(["c.json", "--id", "-1"].map(String::from).into_iter()).is_err());
        assert!(parse_args(["--id", "1"].map(String::from).into_iter()).is_err());
        let a = parse_args(["c.json", "--id", "0", "--log-bound", "0", "--snapshot-every", "1000000"].map(String::from).into_iter()).unwrap();
        assert_eq!((a.log_bound, a.snapshot_every), (0, 1_000_000));
        assert_eq!(a.status_interval_ms, 1000);
        let a = parse_args(["c.json", "--id", "0", "--status-interval-ms", "100"].map(String::from).into_iter()).unwrap();
        assert_eq!(a.status_interval_ms, 100);
        for (flag, value, said) in [
            ("--log-bound", "1000001", "bad --log-bound \"1000001\": between 0 and 1000000"),
            ("--status-interval-ms", "9", "bad --status-interval-ms \"9\": between 10 and 60000"),
            ("--snapshot-every", "x", "bad --snapshot-every \"x\": between 0 and 1000000"),
            ("--threads", "0", "bad --threads \"0\""),
            ("--stats-every", "-3", "bad --stats-every \"-3\""),
            ("--seed", "9007199254740992", "bad --seed \"9007199254740992\": an integer below 2^53"),
        ] {
            let err = parse_args(["c.json", "--id", "0", flag, value].map(String::from).into_iter()).err().unwrap();
            assert_eq!(err, said);
        }
    }
}
