//! The strict `.npy` header check: ptoc accepts exactly the headers numpy's own reader accepts
//! (`numpy.lib.format`), so a file that numpy refuses is not read differently here. The header is
//! a Python dict literal with exactly the keys `descr` (a type string), `fortran_order` (`True`
//! or `False`) and `shape` (a tuple of non-negative integers: `()`, `(8,)`, `(2, 3)`).
//!
//! One deliberate difference: numpy keeps the last of duplicated keys; ptoc refuses a header
//! with a duplicated key, because two readers can disagree on which one counts (npyz, which
//! reads the data here, is one of them).
//!
//! Invariant: [`check`] never panics and looks at the header bytes only (the data is untouched).

/// Checks the header of a `.npy` file (`bytes` = the whole file); `Err` says what numpy would
/// object to.
pub fn check(bytes: &[u8]) -> Result<(), String> {
    let magic = b"\x93NUMPY";
    if !bytes.starts_with(magic) {
        return Err("not a .npy file (magic string \\x93NUMPY missing)".to_string());
    }
    let (major, minor) = match (bytes.get(6), bytes.get(7)) {
        (Some(&a), Some(&b)) => (a, b),
        _ => return Err("truncated .npy preamble".to_string()),
    };
    let (len, start): (Option<usize>, usize) = match major {
        1 => (
            bytes
                .get(8..10)
                .map(|b| u16::from_le_bytes([b[0], b[1]]) as usize),
            10,
        ),
        2 | 3 => (
            bytes
                .get(8..12)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize),
            12,
        ),
        _ => return Err(format!("unsupported .npy format version {major}.{minor}")),
    };
    if minor != 0 {
        return Err(format!("unsupported .npy format version {major}.{minor}"));
    }
    let len = len.ok_or("truncated .npy preamble")?;
    let header = start
        .checked_add(len)
        .and_then(|end| bytes.get(start..end))
        .ok_or_else(|| format!("the header length {len} runs past the end of the file"))?;
    // v1/v2 headers are latin-1, v3 UTF-8; the dict itself is ASCII either way.
    let text: String = if major == 3 {
        std::str::from_utf8(header)
            .map_err(|_| "the version 3.0 header is not UTF-8".to_string())?
            .to_string()
    } else {
        header.iter().map(|&b| char::from(b)).collect()
    };
    check_dict(&text)
}

/// [`check`] on a file read from its current position, which is restored afterwards (the
/// streaming reader of `ptoc cast`). Reads only the preamble and the header (at most 16 MiB).
pub fn check_reader<R: std::io::Read + std::io::Seek>(r: &mut R) -> Result<(), String> {
    use std::io::SeekFrom;
    let at = r.stream_position().map_err(|e| e.to_string())?;
    let mut pre = [0u8; 12];
    let mut got = 0;
    while got < pre.len() {
        match r.read(&mut pre[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => return Err(e.to_string()),
        }
    }
    let len = match pre.get(6) {
        Some(1) => usize::from(u16::from_le_bytes([pre[8], pre[9]])) + 10,
        _ => u32::from_le_bytes([pre[8], pre[9], pre[10], pre[11]]) as usize + 12,
    };
    if len > 16 << 20 {
        return Err(format!("the header is {len} bytes long (more than 16 MiB)"));
    }
    let mut head = vec![0u8; len];
    r.seek(SeekFrom::Start(at)).map_err(|e| e.to_string())?;
    let mut got = 0;
    while got < head.len() {
        match r.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => return Err(e.to_string()),
        }
    }
    head.truncate(got);
    r.seek(SeekFrom::Start(at)).map_err(|e| e.to_string())?;
    check(&head)
}

#[derive(Debug, PartialEq)]
enum Value {
    Str(String),
    Bool(bool),
    Int(i128),
    Tuple(Vec<Value>),
    List(Vec<Value>),
    Other(String),
}

impl Value {
    fn show(&self) -> String {
        let join = |v: &[Value]| v.iter().map(Value::show).collect::<Vec<_>>().join(", ");
        match self {
            Value::Str(s) => format!("'{s}'"),
            Value::Bool(b) => if *b { "True" } else { "False" }.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Tuple(v) if v.len() == 1 => format!("({},)", join(v)),
            Value::Tuple(v) => format!("({})", join(v)),
            Value::List(v) => format!("[{}]", join(v)),
            Value::Other(s) => s.clone(),
        }
    }
}

struct Lexer<'a> {
    s: &'a [u8],
    at: usize,
}

impl Lexer<'_> {
    fn skip_ws(&mut self) {
        while self.s.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.at).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn string(&mut self, quote: u8) -> Result<String, String> {
        self.at += 1;
        let start = self.at;
        while let Some(&c) = self.s.get(self.at) {
            if c == b'\\' {
                return Err("escape sequences in header strings are not supported".to_string());
            }
            if c == quote {
                let s = String::from_utf8_lossy(&self.s[start..self.at]).into_owned();
                self.at += 1;
                return Ok(s);
            }
            self.at += 1;
        }
        Err("unterminated string in the header".to_string())
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > 8 {
            return Err("the header nests too deeply".to_string());
        }
        match self.peek() {
            Some(q @ (b'\'' | b'"')) => self.string(q).map(Value::Str),
            Some(open @ (b'(' | b'[')) => {
                self.at += 1;
                let close = if open == b'(' { b')' } else { b']' };
                let mut items = Vec::new();
                let mut trailing_comma = false;
                loop {
                    if self.eat(close) {
                        break;
                    }
                    items.push(self.value(depth + 1)?);
                    trailing_comma = self.eat(b',');
                    if !trailing_comma {
                        if self.eat(close) {
                            break;
                        }
                        return Err("expected ',' or a closing bracket in the header".to_string());
                    }
                }
                Ok(match (open, items.len(), trailing_comma) {
                    // `(8)` is the integer 8, not a tuple.
                    (b'(', 1, false) => items.pop().unwrap_or(Value::Other(String::new())),
                    (b'(', _, _) => Value::Tuple(items),
                    _ => Value::List(items),
                })
            }
            Some(_) => {
                let start = self.at;
                while self.s.get(self.at).is_some_and(|&c| {
                    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.' | b'_')
                }) {
                    self.at += 1;
                }
                let word = String::from_utf8_lossy(&self.s[start..self.at]).into_owned();
                if word.is_empty() {
                    return Err(format!(
                        "unexpected character {:?} in the header",
                        char::from(self.s[self.at])
                    ));
                }
                Ok(match word.as_str() {
                    "True" => Value::Bool(true),
                    "False" => Value::Bool(false),
                    w => match w.parse::<i128>() {
                        Ok(i) if !w.starts_with('+') => Value::Int(i),
                        _ => Value::Other(w.to_string()),
                    },
                })
            }
            None => Err("the header ends early".to_string()),
        }
    }
}

fn check_dict(text: &str) -> Result<(), String> {
    let mut lx = Lexer {
        s: text.as_bytes(),
        at: 0,
    };
    if !lx.eat(b'{') {
        return Err("the header is not a dict literal".to_string());
    }
    let mut entries: Vec<(String, Value)> = Vec::new();
    loop {
        if lx.eat(b'}') {
            break;
        }
        let key = match lx.value(0)? {
            Value::Str(k) => k,
            other => return Err(format!("header key {} is not a string", other.show())),
        };
        if !lx.eat(b':') {
            return Err(format!("expected ':' after header key '{key}'"));
        }
        let v = lx.value(0)?;
        if entries.iter().any(|(k, _)| *k == key) {
            return Err(format!(
                "header key '{key}' appears twice (numpy would keep the last; ptoc refuses the ambiguity)"
            ));
        }
        entries.push((key, v));
        if !lx.eat(b',') {
            if lx.eat(b'}') {
                break;
            }
            return Err("expected ',' or '}' in the header dict".to_string());
        }
    }
    if lx.peek().is_some() {
        return Err("text after the header dict".to_string());
    }
    let mut keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    if keys != ["descr", "fortran_order", "shape"] {
        return Err(format!(
            "the header does not contain exactly the keys descr, fortran_order, shape (found: {})",
            keys.join(", ")
        ));
    }
    for (k, v) in &entries {
        match (k.as_str(), v) {
            ("descr", Value::Str(_)) | ("fortran_order", Value::Bool(_)) => {}
            ("descr", v) => {
                return Err(format!(
                    "descr {} is not a type string (structured dtypes are not element data)",
                    v.show()
                ))
            }
            ("fortran_order", v) => {
                return Err(format!("fortran_order is not a valid bool: {}", v.show()))
            }
            ("shape", Value::Tuple(dims)) => {
                for d in dims {
                    match d {
                        Value::Int(i) if *i < 0 => {
                            return Err("negative dimensions are not allowed".to_string())
                        }
                        Value::Int(_) => {}
                        _ => return Err(format!("shape is not valid: {}", v.show())),
                    }
                }
            }
            (_, v) => return Err(format!("shape is not valid: {}", v.show())),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_dict;

    #[test]
    fn numpy_accepts_these() {
        for h in [
            "{'descr': '<f4', 'fortran_order': False, 'shape': (8,), }",
            "{\"descr\": '<f4', 'fortran_order': False, 'shape': (8,)}",
            "{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3), }   \n",
            "{'shape': (), 'fortran_order': False, 'descr': '<i4'}",
        ] {
            assert_eq!(check_dict(h), Ok(()), "{h}");
        }
    }

    #[test]
    fn numpy_refuses_these() {
        for (h, why) in [
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (8,), 'extra': 1}",
                "exactly the keys",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': [8], }",
                "shape is not valid: [8]",
            ),
            (
                "{'descr': '<f4', 'fortran_order': 0, 'shape': (8,), }",
                "not a valid bool: 0",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (8.0,), }",
                "shape is not valid",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (-8,), }",
                "negative",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (True,), }",
                "shape is not valid",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (8), }",
                "shape is not valid: 8",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False}",
                "exactly the keys",
            ),
            (
                "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (8,)}",
                "twice",
            ),
            (
                "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (8,)}",
                "type string",
            ),
            ("['descr']", "dict literal"),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (8,)} x",
                "after",
            ),
            ("{'descr': '<f4", "unterminated"),
        ] {
            let e = check_dict(h).expect_err(h);
            assert!(e.contains(why), "{h}: {e}");
        }
    }

    #[test]
    fn mutated_headers_never_panic() {
        let base = b"\x93NUMPY\x01\x00\x46\x00{'descr': '<f4', 'fortran_order': False, 'shape': (8, 2), }                 \n";
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..20_000 {
            let mut b = base.to_vec();
            for _ in 0..rng.usize(1..4) {
                let i = rng.usize(..b.len());
                match rng.u8(..3) {
                    0 => b[i] = rng.u8(..),
                    1 => {
                        b.remove(i);
                    }
                    _ => b.insert(i, *b"(),'[]:{}-8 \\".get(rng.usize(..14)).unwrap_or(&b'x')),
                }
            }
            let _ = super::check(&b);
            let _ = super::check_reader(&mut std::io::Cursor::new(&b));
        }
    }
}
