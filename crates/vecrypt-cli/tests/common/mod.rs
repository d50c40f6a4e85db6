//! What every CLI test file shares: the command under test.

use std::process::Command;

/// The `vecrypt` binary of this build. When `VECRYPT_TEST_RUNNER` is set (for example to
/// `qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu` for the tests of another
/// architecture), the binary runs under that command, split at whitespace.
pub fn vecrypt_command() -> Command {
    let bin = env!("CARGO_BIN_EXE_vecrypt");
    let runner = std::env::var("VECRYPT_TEST_RUNNER").unwrap_or_default();
    let mut words = runner.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut c = Command::new(program);
            c.args(words).arg(bin);
            c
        }
        None => Command::new(bin),
    }
}
