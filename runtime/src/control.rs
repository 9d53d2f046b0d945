//! External events (Cellier & Kofman §10.1): commands arriving asynchronously over UDP or
//! standard input, queued in a mailbox and applied after the current step, in the frame's
//! waiting time.
//!
//! One command per line (a UDP datagram may hold several lines):
//!
//! | command | effect |
//! |---|---|
//! | `set NAME VALUE` (or `set NAME=VALUE`) | a parameter or an input takes a new value |
//! | `pause` | frames go on, steps stop; simulated time stands still |
//! | `resume` | steps start again, real time restarts from the next frame |
//! | `stop` | the run ends after the current frame |
//!
//! With `--control-token`, every command datagram starts with the token (its first word);
//! the others are refused whole, and logged.

use std::net::{SocketAddr, UdpSocket};
use std::sync::mpsc::Sender;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Set { name: String, value: f64 },
    Pause,
    Resume,
    Stop,
}

impl std::fmt::Display for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Command::Set { name, value } => write!(f, "set {name} {value}"),
            Command::Pause => write!(f, "pause"),
            Command::Resume => write!(f, "resume"),
            Command::Stop => write!(f, "stop"),
        }
    }
}

/// Parses one command line.
pub fn parse(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["pause"] => Ok(Command::Pause),
        ["resume"] => Ok(Command::Resume),
        ["stop"] => Ok(Command::Stop),
        ["set", rest @ ..] => {
            let (name, value) = match rest {
                [nv] => nv
                    .split_once('=')
                    .ok_or_else(|| format!("`{line}`: expected set NAME VALUE"))?,
                [n, v] => (*n, *v),
                _ => return Err(format!("`{line}`: expected set NAME VALUE")),
            };
            let value: f64 = value
                .parse()
                .map_err(|_| format!("`{line}`: `{value}` is not a number"))?;
            Ok(Command::Set {
                name: name.to_string(),
                value,
            })
        }
        _ => Err(format!(
            "`{}`: unknown command (set NAME VALUE, pause, resume, stop)",
            line.trim()
        )),
    }
}

/// The end of the refusal of a datagram without the control token.
pub const NO_TOKEN: &str = "without the control token (ignored)";

/// A command or a line that did not parse, as it arrived.
pub type Message = Result<Command, String>;

fn post_lines(text: &str, tx: &Sender<Message>) -> bool {
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if tx.send(parse(line)).is_err() {
            return false;
        }
    }
    true
}

/// `text` without its leading `token` (the datagram's first word), compared in constant time
/// (the time taken does not tell how much of a guess was right); `None` when it does not start
/// with it.
pub fn strip_token<'a>(text: &'a str, token: &str) -> Option<&'a str> {
    let trimmed = text.trim_start();
    let end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
    let (word, rest) = trimmed.split_at(end);
    let (a, b) = (word.as_bytes(), token.as_bytes());
    // Every byte of the token is compared, whatever the length of the word.
    let mut diff = a.len() ^ b.len();
    for (i, &t) in b.iter().enumerate() {
        diff |= usize::from(a.get(i).copied().unwrap_or(0) ^ t);
    }
    (diff == 0).then_some(rest)
}

/// Binds `addr` and forwards every command datagram to `tx`; returns the bound address. With
/// a `token`, a datagram must start with it (then the commands); one that does not is refused
/// whole.
pub fn spawn_udp(
    addr: &str,
    tx: Sender<Message>,
    token: Option<String>,
) -> Result<SocketAddr, String> {
    let sock = UdpSocket::bind(addr).map_err(|e| format!("cannot bind UDP {addr}: {e}"))?;
    let local = sock.local_addr().map_err(|e| e.to_string())?;
    std::thread::Builder::new()
        .name("rtc-control-udp".into())
        .spawn(move || {
            let mut buf = [0u8; 65536];
            while let Ok((n, from)) = sock.recv_from(&mut buf) {
                let text = String::from_utf8_lossy(&buf[..n]);
                let commands = match &token {
                    None => Some(&text[..]),
                    Some(t) => strip_token(&text, t),
                };
                let posted = match commands {
                    Some(c) => post_lines(c, &tx),
                    None => tx
                        .send(Err(format!("a datagram from {from} {NO_TOKEN}")))
                        .is_ok(),
                };
                if !posted {
                    break;
                }
            }
        })
        .map_err(|e| e.to_string())?;
    Ok(local)
}

/// Forwards command lines from standard input to `tx`.
pub fn spawn_stdin(tx: Sender<Message>) -> Result<(), String> {
    std::thread::Builder::new()
        .name("rtc-control-stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut line = String::new();
            while stdin.read_line(&mut line).is_ok_and(|n| n > 0) {
                if !post_lines(&line, &tx) {
                    break;
                }
                line.clear();
            }
        })
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_prefixes_a_datagram() {
        assert_eq!(strip_token("s3cret set R 1", "s3cret"), Some(" set R 1"));
        assert_eq!(strip_token("  s3cret\nstop", "s3cret"), Some("\nstop"));
        assert_eq!(strip_token("s3cre set R 1", "s3cret"), None);
        assert_eq!(strip_token("s3crets set R 1", "s3cret"), None);
        assert_eq!(strip_token("set R 1", "s3cret"), None);
        assert_eq!(strip_token("", "s3cret"), None);
    }

    #[test]
    fn commands() {
        assert_eq!(
            parse("set R 2.5").unwrap(),
            Command::Set {
                name: "R".into(),
                value: 2.5
            }
        );
        assert_eq!(
            parse(" set k=0.2 ").unwrap(),
            Command::Set {
                name: "k".into(),
                value: 0.2
            }
        );
        assert_eq!(parse("pause").unwrap(), Command::Pause);
        assert!(parse("set R").is_err());
        assert!(parse("set R x").is_err());
        assert!(parse("jump").is_err());
    }
}
