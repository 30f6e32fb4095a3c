//! A strict JSON reader (RFC 8259 plus the rules of docs/protocol.md: non-negative integers
//! below 2^53 only, no duplicate keys, nesting at most [`MAX_JSON_DEPTH`]) and helpers for the
//! canonical writer. Hand-written, like the Go reference's json.go, so that every engine
//! accepts and rejects exactly the same inputs.

use std::borrow::Cow;

pub const MAX_JSON_DEPTH: usize = 16;
pub const MAX_SAFE_INT: u64 = (1 << 53) - 1;

/// A parsed value. Strings are raw bytes after unescaping (borrowed from the input when they
/// hold no escape): raw non-ASCII bytes are kept as they are, and every field of ours then
/// checks its own content rules.
#[derive(Debug, PartialEq)]
pub enum JsonValue<'a> {
    Null,
    Bool(bool),
    Number(u64),
    String(Cow<'a, [u8]>),
    Array(Vec<JsonValue<'a>>),
    Object(Vec<(Cow<'a, [u8]>, JsonValue<'a>)>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonError;

type JResult<T> = std::result::Result<T, JsonError>;

struct JsonReader<'a> {
    input: &'a [u8],
    pos: usize,
    depth: usize,
}

/// Reads exactly one JSON value (surrounded by optional whitespace).
pub fn parse_json(input: &[u8]) -> JResult<JsonValue<'_>> {
    let mut r = JsonReader { input, pos: 0, depth: 0 };
    let v = r.value()?;
    r.skip_space();
    if r.pos != input.len() {
        return Err(JsonError);
    }
    Ok(v)
}

/// The length of the run at the start of `s` that a string needs no attention for: no `"`,
/// no `\\`, no control character. Eight bytes at a time, then byte by byte.
fn plain_run(s: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // nonzero iff some byte of v is below n (n <= 128)
    let has_less = |v: u64, n: u64| v.wrapping_sub(ONES * n) & !v & HIGH;
    let mut i = 0;
    while let Some(chunk) = s.get(i..i + 8) {
        let v = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let quote = v ^ (ONES * b'"' as u64);
        let backslash = v ^ (ONES * b'\\' as u64);
        if has_less(quote, 1) | has_less(backslash, 1) | has_less(v, 0x20) != 0 {
            break;
        }
        i += 8;
    }
    while i < s.len() && !matches!(s[i], b'"' | b'\\' | 0..=0x1f) {
        i += 1;
    }
    i
}

fn hex_digit(c: u8) -> Option<u32> {
    match c {
        b'0'..=b'9' => Some((c - b'0') as u32),
        b'a'..=b'f' => Some((c - b'a') as u32 + 10),
        b'A'..=b'F' => Some((c - b'A') as u32 + 10),
        _ => None,
    }
}

impl<'a> JsonReader<'a> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn literal(&mut self, word: &[u8]) -> bool {
        if self.input[self.pos..].starts_with(word) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> JResult<JsonValue<'a>> {
        self.skip_space();
        match self.peek().ok_or(JsonError)? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => Ok(JsonValue::String(self.str()?)),
            b't' if self.literal(b"true") => Ok(JsonValue::Bool(true)),
            b'f' if self.literal(b"false") => Ok(JsonValue::Bool(false)),
            b'n' if self.literal(b"null") => Ok(JsonValue::Null),
            b'0'..=b'9' => self.number(),
            _ => Err(JsonError),
        }
    }

    /// Accepts only what our schemas allow: a non-negative integer below 2^53 written without
    /// fraction or exponent. Any other JSON number is rejected here.
    fn number(&mut self) -> JResult<JsonValue<'a>> {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        let digits = &self.input[start..self.pos];
        if digits.len() > 1 && digits[0] == b'0' {
            return Err(JsonError);
        }
        if let Some(b'.' | b'e' | b'E') = self.peek() {
            return Err(JsonError);
        }
        if digits.len() > 16 {
            return Err(JsonError);
        }
        let n = digits.iter().fold(0u64, |n, &d| n * 10 + (d - b'0') as u64);
        if n > MAX_SAFE_INT {
            return Err(JsonError);
        }
        Ok(JsonValue::Number(n))
    }

    /// Reads a string. Escapes of code points >= 0x80 decode to a two-byte non-ASCII marker
    /// (as in the Go reference); every field of ours then rejects it, as it rejects raw
    /// non-ASCII bytes.
    fn str(&mut self) -> JResult<Cow<'a, [u8]>> {
        self.pos += 1; // opening quote
        let mut out: Option<Vec<u8>> = None;
        let mut start = self.pos;
        loop {
            self.pos += plain_run(&self.input[self.pos..]);
            let c = self.peek().ok_or(JsonError)?;
            match c {
                b'"' => {
                    let tail = &self.input[start..self.pos];
                    self.pos += 1;
                    return Ok(match out {
                        None => Cow::Borrowed(tail),
                        Some(mut o) => {
                            o.extend_from_slice(tail);
                            Cow::Owned(o)
                        }
                    });
                }
                0..=0x1f => return Err(JsonError),
                b'\\' => {
                    let o = out.get_or_insert_with(Vec::new);
                    o.extend_from_slice(&self.input[start..self.pos]);
                    let e = *self.input.get(self.pos + 1).ok_or(JsonError)?;
                    self.pos += 2;
                    match e {
                        b'"' | b'\\' | b'/' => o.push(e),
                        b'b' => o.push(0x08),
                        b'f' => o.push(0x0c),
                        b'n' => o.push(b'\n'),
                        b'r' => o.push(b'\r'),
                        b't' => o.push(b'\t'),
                        b'u' => {
                            let hex = self.input.get(self.pos..self.pos + 4).ok_or(JsonError)?;
                            let mut cp = 0u32;
                            for &h in hex {
                                cp = cp << 4 | hex_digit(h).ok_or(JsonError)?;
                            }
                            self.pos += 4;
                            if cp < 0x80 {
                                o.push(cp as u8);
                            } else {
                                o.push(0xc0 | ((cp >> 6) & 0x1f) as u8); // non-ASCII marker
                                o.push(0x80 | (cp & 0x3f) as u8);
                            }
                        }
                        _ => return Err(JsonError),
                    }
                    start = self.pos;
                }
                _ => unreachable!("plain_run stops only at a quote, a backslash or a control byte"),
            }
        }
    }

    fn enter(&mut self) -> JResult<()> {
        self.depth += 1;
        if self.depth > MAX_JSON_DEPTH {
            return Err(JsonError);
        }
        Ok(())
    }

    /// Steps into a list (an array or an object) at its opening bracket: whether an item
    /// follows (false: the list closed at once).
    fn open_list(&mut self, close: u8) -> JResult<bool> {
        self.enter()?;
        self.pos += 1;
        self.skip_space();
        if self.peek() == Some(close) {
            self.pos += 1;
            self.depth -= 1;
            return Ok(false);
        }
        Ok(true)
    }

    /// Steps over what follows an item of a list: a comma (true: another item follows) or the
    /// list's closing bracket (false).
    fn next_item(&mut self, close: u8) -> JResult<bool> {
        self.skip_space();
        match self.peek().ok_or(JsonError)? {
            b',' => {
                self.pos += 1;
                Ok(true)
            }
            c if c == close => {
                self.pos += 1;
                self.depth -= 1;
                Ok(false)
            }
            _ => Err(JsonError),
        }
    }

    fn array(&mut self) -> JResult<JsonValue<'a>> {
        let mut more = self.open_list(b']')?;
        let mut items = Vec::new();
        while more {
            items.push(self.value()?);
            more = self.next_item(b']')?;
        }
        Ok(JsonValue::Array(items))
    }

    fn object(&mut self) -> JResult<JsonValue<'a>> {
        let mut more = self.open_list(b'}')?;
        let mut fields: Vec<(Cow<'a, [u8]>, JsonValue<'a>)> = Vec::new();
        while more {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(JsonError);
            }
            let name = self.str()?;
            if fields.iter().any(|(n, _)| *n == name) {
                return Err(JsonError); // duplicate key
            }
            self.skip_space();
            if self.peek() != Some(b':') {
                return Err(JsonError);
            }
            self.pos += 1;
            let item = self.value()?;
            fields.push((name, item));
            more = self.next_item(b'}')?;
        }
        Ok(JsonValue::Object(fields))
    }
}

// --- the canonical writer ---

/// Appends `n` in decimal.
pub fn append_uint(b: &mut Vec<u8>, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    b.extend_from_slice(&buf[i..]);
}

/// Appends `s` as a JSON string: `"` and `\` are escaped, nothing else can occur.
pub fn append_json_string(b: &mut Vec<u8>, s: &str) {
    b.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &c) in bytes.iter().enumerate() {
        if c == b'"' || c == b'\\' {
            b.extend_from_slice(&bytes[start..i]);
            b.push(b'\\');
            b.push(c);
            start = i + 1;
        }
    }
    b.extend_from_slice(&bytes[start..]);
    b.push(b'"');
}

/// Writes `"name":`, preceded by a comma unless it is the first field.
#[inline]
pub fn append_field(b: &mut Vec<u8>, name: &str, first: bool) {
    if !first {
        b.push(b',');
    }
    b.push(b'"');
    b.extend_from_slice(name.as_bytes());
    b.extend_from_slice(b"\":");
}

pub fn append_uint_field(b: &mut Vec<u8>, name: &str, n: u64, first: bool) {
    append_field(b, name, first);
    append_uint(b, n);
}

pub fn append_string_field(b: &mut Vec<u8>, name: &str, s: &str, first: bool) {
    append_field(b, name, first);
    append_json_string(b, s);
}

pub fn append_bool_field(b: &mut Vec<u8>, name: &str, v: bool, first: bool) {
    append_field(b, name, first);
    b.extend_from_slice(if v { b"true" } else { b"false" });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> bool {
        parse_json(s.as_bytes()).is_ok()
    }

    fn nested(depth: usize) -> String {
        "[".repeat(depth) + &"]".repeat(depth)
    }

    #[test]
    fn accepts_plain_values_and_whitespace() {
        for s in [
            "0", "7", "9007199254740991", "true", "false", "null", "\"\"", "[]", "{}",
            " \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" : { } }\n", "[[],{},\"x\",0]",
        ] {
            assert!(ok(s), "{s}");
        }
        assert_eq!(parse_json(b"9007199254740991"), Ok(JsonValue::Number(MAX_SAFE_INT)));
    }

    #[test]
    fn numbers_are_non_negative_integers_below_2_pow_53() {
        for s in [
            "-1", "-0", "1.0", "1.", "0.5", "1e3", "1E3", "1e+3", "01", "00", "+1",
            "9007199254740992", // 2^53
            "18446744073709551616", "12345678901234567", "Infinity", "NaN", "0x10",
        ] {
            assert!(!ok(s), "{s}");
        }
    }

    #[test]
    fn rejects_duplicates_and_trailing_garbage() {
        assert!(!ok(r#"{"a":1,"a":2}"#));
        assert!(!ok(r#"{"a":1,"\u0061":2}"#)); // duplicate after unescaping
        assert!(!ok("{} x"));
        assert!(!ok("{}{}"));
        assert!(!ok("1 2"));
        assert!(!ok(""));
        assert!(!ok("   "));
        assert!(!ok("[1,]"));
        assert!(!ok(r#"{"a":1,}"#));
        assert!(!ok(r#"{"a" 1}"#));
        assert!(!ok(r#"{a:1}"#));
        assert!(!ok("[1 2]"));
        assert!(!ok("[1"));
        assert!(!ok("{\"a\":1"));
        assert!(!ok("tru"));
        assert!(!ok("nul"));
        assert!(!ok("True"));
        assert!(!ok("'a'"));
    }

    #[test]
    fn nesting_is_limited_to_16() {
        assert!(ok(&nested(16)));
        assert!(!ok(&nested(17)));
        let objects16 = "{\"a\":".repeat(15) + "{}" + &"}".repeat(15);
        assert!(ok(&objects16));
        let objects17 = "{\"a\":".repeat(16) + "{}" + &"}".repeat(16);
        assert!(!ok(&objects17));
        // depth counts open containers, not siblings
        assert!(ok(&format!("[{},{}]", nested(15), nested(15))));
    }

    #[test]
    fn strings_and_escapes() {
        let s = |input: &str| match parse_json(input.as_bytes()) {
            Ok(JsonValue::String(v)) => Some(v.into_owned()),
            _ => None,
        };
        assert_eq!(s(r#""plain""#), Some(b"plain".to_vec()));
        assert_eq!(s(r#""a\"b\\c\/d""#), Some(b"a\"b\\c/d".to_vec()));
        assert_eq!(s(r#""\b\f\n\r\t""#), Some(b"\x08\x0c\n\r\t".to_vec()));
        assert_eq!(s(r#""\u0041\u007e\u0000""#), Some(b"A~\x00".to_vec()));
        assert_eq!(s(r#""\u00e9""#), Some(vec![0xc3, 0xa9]));
        assert_eq!(s(r#""\u00E9x""#), Some(vec![0xc3, 0xa9, b'x']));
        // raw bytes >= 0x20 are kept as they are, non-ASCII included
        assert_eq!(s("\"\u{e9}\x7f\""), Some(vec![0xc3, 0xa9, 0x7f]));
        for bad in [
            r#""\x""#, r#""\u12""#, r#""\u12g4""#, r#""\'""#, r#""\""#, "\"abc", "\"a\nb\"", "\"\t\"", "\"\x00\"",
            "\"\x1f\"", r#""\U0041""#,
        ] {
            assert_eq!(s(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn plain_runs_stop_at_every_special_byte() {
        assert_eq!(plain_run(b""), 0);
        assert_eq!(plain_run(b"abc"), 3);
        for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
            for at in 0..20 {
                let mut s = vec![b'x'; 24];
                s[at] = special;
                assert_eq!(plain_run(&s), at, "byte {special:#x} at {at}");
            }
        }
        // high bytes and the bytes next to the special ones are plain
        let s: Vec<u8> = (0x20..=0xff).filter(|&c| c != b'"' && c != b'\\').collect();
        assert_eq!(plain_run(&s), s.len());
    }

    #[test]
    fn writer() {
        let mut b = Vec::new();
        b.push(b'{');
        append_uint_field(&mut b, "n", 0, true);
        append_uint_field(&mut b, "m", u64::MAX, false);
        append_string_field(&mut b, "s", "a\"b\\c", false);
        append_bool_field(&mut b, "t", true, false);
        append_bool_field(&mut b, "f", false, false);
        b.push(b'}');
        assert_eq!(String::from_utf8(b).unwrap(), r#"{"n":0,"m":18446744073709551615,"s":"a\"b\\c","t":true,"f":false}"#);
    }
}
