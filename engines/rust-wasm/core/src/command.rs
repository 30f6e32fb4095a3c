//! Client commands: parsing the client text protocol, and the results clients are told.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CommandType {
    #[default]
    Get,
    Put,
    Del,
    /// Fills a log slot no promise covered when a leader takes over (docs/protocol.md, Replay);
    /// it changes nothing and no client line parses to it.
    Noop,
}

impl CommandType {
    pub fn name(self) -> &'static str {
        match self {
            CommandType::Get => "get",
            CommandType::Put => "put",
            CommandType::Del => "del",
            CommandType::Noop => "noop",
        }
    }
}

/// Limits on what a client may store; longer input is a bad command.
pub const MAX_KEY_BYTES: usize = 256;
pub const MAX_VALUE_BYTES: usize = 65536;

/// A parsed command. Keys and values are printable ASCII (checked by [`valid_key`] and
/// [`valid_value`] before a `Command` is built), so `String` holds them without loss.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Command {
    pub typ: CommandType,
    pub key: String,
    /// Only for put.
    pub value: String,
}

/// What a client is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ResultType {
    #[default]
    Ok,
    NotFound,
    Retry,
    LeaderIs,
    BadCommand,
    /// GC mitigation (MITMEM): retry at another replica now.
    Busy,
}

impl ResultType {
    pub fn name(self) -> &'static str {
        match self {
            ResultType::Ok => "ok",
            ResultType::NotFound => "not_found",
            ResultType::Retry => "retry",
            ResultType::LeaderIs => "leader_is",
            ResultType::BadCommand => "bad_command",
            ResultType::Busy => "busy",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Result {
    pub typ: ResultType,
    /// For ok.
    pub value: String,
    /// For leader_is.
    pub leader: u64,
    /// For busy: the predicted pause.
    pub pause_us: u64,
}

impl Result {
    pub fn of(typ: ResultType) -> Result {
        Result { typ, value: String::new(), leader: 0, pause_us: 0 }
    }
}

/// Renders a result as the client text protocol's reply line (without "\n").
pub fn reply_line(r: &Result) -> String {
    match r.typ {
        ResultType::Ok => r.value.clone(),
        ResultType::NotFound => "key not found".to_string(),
        ResultType::Retry => "retry".to_string(),
        ResultType::LeaderIs => format!("leader is {}", r.leader),
        ResultType::BadCommand => "bad command".to_string(),
        ResultType::Busy => format!("busy {}", r.pause_us),
    }
}

fn is_key_byte(c: u8) -> bool {
    (0x21..=0x7e).contains(&c)
}

fn is_value_byte(c: u8) -> bool {
    (0x20..=0x7e).contains(&c)
}

/// Whether `k` may be stored: 1..=MAX_KEY_BYTES printable bytes, no space.
pub fn valid_key(k: &[u8]) -> bool {
    // a fold without early exit: the compiler turns it into vector code
    !k.is_empty() && k.len() <= MAX_KEY_BYTES && k.iter().fold(true, |ok, &c| ok & is_key_byte(c))
}

/// Whether `v` may be stored: 0..=MAX_VALUE_BYTES printable bytes.
pub fn valid_value(v: &[u8]) -> bool {
    v.len() <= MAX_VALUE_BYTES && v.iter().fold(true, |ok, &c| ok & is_value_byte(c))
}

/// Splits at the first space, like Go's strings.Cut.
fn cut_space(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let i = s.iter().position(|&c| c == b' ')?;
    Some((&s[..i], &s[i + 1..]))
}

/// Printable ASCII (already checked) to a String.
pub(crate) fn ascii_string(b: &[u8]) -> String {
    debug_assert!(b.is_ascii());
    String::from_utf8(b.to_vec()).unwrap_or_default()
}

/// Reads one client line ("get k", "put k v", "del k"). The value of a put is the rest of the
/// line after the key and one space; it may hold spaces or be empty. The line is raw bytes:
/// anything that is not printable ASCII makes it a bad command.
pub fn parse_command(line: &[u8]) -> Option<Command> {
    let (verb, rest) = cut_space(line)?;
    match verb {
        b"get" | b"del" => {
            if !valid_key(rest) {
                return None;
            }
            let typ = if verb == b"get" { CommandType::Get } else { CommandType::Del };
            Some(Command { typ, key: ascii_string(rest), value: String::new() })
        }
        b"put" => {
            let (key, value) = cut_space(rest)?;
            if !valid_key(key) || !valid_value(value) {
                return None;
            }
            Some(Command { typ: CommandType::Put, key: ascii_string(key), value: ascii_string(value) })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(typ: CommandType, key: &str, value: &str) -> Option<Command> {
        Some(Command { typ, key: key.into(), value: value.into() })
    }

    #[test]
    fn good_lines() {
        assert_eq!(parse_command(b"get k"), cmd(CommandType::Get, "k", ""));
        assert_eq!(parse_command(b"del k"), cmd(CommandType::Del, "k", ""));
        assert_eq!(parse_command(b"put k v"), cmd(CommandType::Put, "k", "v"));
        assert_eq!(parse_command(b"put k "), cmd(CommandType::Put, "k", ""));
        assert_eq!(parse_command(b"put k  two  spaces "), cmd(CommandType::Put, "k", " two  spaces "));
        assert_eq!(parse_command(b"get !~{}\"\\"), cmd(CommandType::Get, "!~{}\"\\", ""));
        let long_key = "k".repeat(MAX_KEY_BYTES);
        assert_eq!(parse_command(format!("get {long_key}").as_bytes()), cmd(CommandType::Get, &long_key, ""));
        let long_value = "v".repeat(MAX_VALUE_BYTES);
        assert_eq!(
            parse_command(format!("put k {long_value}").as_bytes()),
            cmd(CommandType::Put, "k", &long_value)
        );
    }

    #[test]
    fn bad_lines() {
        let bad: &[&[u8]] = &[
            b"",
            b"get",
            b"get ",
            b"put k",
            b"put  v",
            b"GET k",
            b"gets k",
            b"get k ",
            b"get a b",
            b"del k extra",
            b"get\tk",
            b"put k\tv",
            b"put k v\t",
            b"put k v\x7f",
            b"get k\x00",
            b"put k\x01 v",
            b"get \xc3\xa9",
            b"put k \xc3\xa9",
            b" get k",
            b"frobnicate k",
        ];
        for line in bad {
            assert_eq!(parse_command(line), None, "{:?}", String::from_utf8_lossy(line));
        }
        let too_long_key = "k".repeat(MAX_KEY_BYTES + 1);
        assert_eq!(parse_command(format!("get {too_long_key}").as_bytes()), None);
        let too_long_value = "v".repeat(MAX_VALUE_BYTES + 1);
        assert_eq!(parse_command(format!("put k {too_long_value}").as_bytes()), None);
    }

    #[test]
    fn reply_lines() {
        assert_eq!(reply_line(&Result { typ: ResultType::Ok, value: "v w".into(), leader: 0, pause_us: 0 }), "v w");
        assert_eq!(reply_line(&Result::of(ResultType::Ok)), "");
        assert_eq!(reply_line(&Result::of(ResultType::NotFound)), "key not found");
        assert_eq!(reply_line(&Result::of(ResultType::Retry)), "retry");
        assert_eq!(reply_line(&Result { typ: ResultType::LeaderIs, value: String::new(), leader: 2, pause_us: 0 }), "leader is 2");
        assert_eq!(reply_line(&Result::of(ResultType::BadCommand)), "bad command");
    }
}
