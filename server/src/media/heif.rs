//! iPhone photos (HEIC/HEIF), decoded by a child process per file
//! (`media::heif_worker`, the same program run as `sitecast decode-heif`): the C
//! decoder never runs inside the server, so a hostile file can at worst end its own
//! worker. The parent keeps what the in-process decoders keep: one decode per core,
//! the shared decode budget reserved for the picture's size before it is decoded, and
//! a deadline after which the worker is killed.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::sync::Semaphore;

use super::budget;
use super::heif_worker::{self, Answer, Ask, MAX_FRAME};
use super::renditions::{self, RenditionError, Renditions};

/// From start to answer; a 48-megapixel photo takes a few seconds.
const DEADLINE: Duration = Duration::from_secs(90);
/// What the worker says on stderr that is kept for the log.
const STDERR_KEPT: u64 = 4096;

/// HEIF containers (an ISO BMFF `ftyp` box with an image brand), as iPhones save them.
pub fn is_heif(bytes: &[u8]) -> bool {
    const BRANDS: [&[u8; 4]; 8] = [b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"];
    bytes.len() >= 12 && &bytes[4..8] == b"ftyp" && BRANDS.iter().any(|b| &bytes[8..12] == *b)
}

#[derive(Clone)]
pub struct HeifDecoder {
    /// This program, or what `SITECAST_HEIF_DECODER` names.
    program: PathBuf,
    slots: Arc<Semaphore>,
}

impl HeifDecoder {
    /// At most `parallel` workers at once.
    pub fn new(program: PathBuf, parallel: usize) -> HeifDecoder {
        HeifDecoder { program, slots: Arc::new(Semaphore::new(parallel.max(1))) }
    }

    pub async fn render(&self, bytes: bytes::Bytes) -> Result<Renditions, RenditionError> {
        let _slot = self.slots.acquire().await.map_err(|_| RenditionError::Decode("the HEIF decoder is stopping".to_owned()))?;
        let started = Instant::now();
        let made = match tokio::time::timeout(DEADLINE, self.exchange(&bytes)).await {
            Ok(made) => made?,
            // Dropping the exchange dropped the child, which kills it.
            Err(_) => {
                tracing::warn!(seconds = DEADLINE.as_secs(), "a HEIF decode ran out of time; its worker was killed");
                return Err(RenditionError::Decode("the HEIF decoder ran out of time".to_owned()));
            }
        };
        metrics::histogram!(crate::metric_names::RENDITION_SECONDS).record(started.elapsed().as_secs_f64());
        Ok(Renditions {
            content_type: "image/heic",
            width: made.width,
            height: made.height,
            display: made.display,
            thumb: made.thumb,
            taken_at: super::exif::taken_at(&bytes),
            location: super::exif::location(&bytes),
        })
    }

    async fn exchange(&self, bytes: &[u8]) -> Result<renditions::Made, RenditionError> {
        let failed = |what: &str, err: &dyn std::fmt::Display| {
            tracing::error!(program = %self.program.display(), error = %err, "{what}");
            RenditionError::Decode(format!("{what}: {err}"))
        };
        let mut child = tokio::process::Command::new(&self.program)
            .arg("decode-heif")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| failed("could not start the HEIF decoder", &e))?;
        let (Some(mut input), Some(mut output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(RenditionError::Decode("the HEIF decoder has no pipes".to_owned()));
        };
        let file = heif_worker::frame(&Ask::File(bytes.to_vec())).map_err(|e| failed("could not frame the file", &e))?;
        let (width, height) = match talk(&mut input, &mut output, &file).await {
            Ok(Answer::Size { width, height }) => (width, height),
            Ok(Answer::Refused(refusal)) => return Err(refusal.into()),
            Ok(Answer::Done { .. }) => return Err(RenditionError::Decode("the HEIF decoder answered out of turn".to_owned())),
            Err(_) => return Err(stopped(child).await),
        };
        renditions::check_pixels(width, height)?;
        let need = u64::from(width) * u64::from(height) * heif_worker::BYTES_PER_PIXEL + renditions::RENDITION_BYTES;
        let _held = tokio::task::spawn_blocking(move || budget::DECODES.reserve(need))
            .await
            .map_err(|e| failed("waiting for the decode budget failed", &e))?
            .ok_or(RenditionError::TooMuchMemory(need))?;
        let go = heif_worker::frame(&Ask::Go).map_err(|e| failed("could not frame go", &e))?;
        match talk(&mut input, &mut output, &go).await {
            Ok(Answer::Done { width, height, display, thumb, peak_rss_kib }) => {
                tracing::debug!(width, height, peak_rss_kib, "decoded a HEIF photo");
                let _ = child.wait().await;
                Ok(renditions::Made { width, height, display, thumb })
            }
            Ok(Answer::Refused(refusal)) => Err(refusal.into()),
            Ok(Answer::Size { .. }) => Err(RenditionError::Decode("the HEIF decoder answered out of turn".to_owned())),
            Err(_) => Err(stopped(child).await),
        }
    }
}

/// Sends one message and reads the answer.
async fn talk(input: &mut ChildStdin, output: &mut ChildStdout, message: &[u8]) -> std::io::Result<Answer> {
    input.write_all(message).await?;
    input.flush().await?;
    let len = output.read_u32().await?;
    if len > MAX_FRAME {
        return Err(std::io::Error::other(format!("an answer of {len} bytes")));
    }
    let mut body = vec![0u8; len as usize];
    output.read_exact(&mut body).await?;
    rmp_serde::from_slice(&body).map_err(std::io::Error::other)
}

/// The worker ended without an answer (a crash in the decoder, its memory or CPU
/// limit): why, for the log; the file is refused as unreadable.
async fn stopped(mut child: Child) -> RenditionError {
    let mut said = String::new();
    if let Some(stderr) = child.stderr.take() {
        let _ = stderr.take(STDERR_KEPT).read_to_string(&mut said).await;
    }
    let status = child.wait().await;
    tracing::warn!(status = ?status, stderr = %said.trim(), "the HEIF decoder stopped without an answer");
    RenditionError::Decode("the HEIF decoder stopped on this file".to_owned())
}
