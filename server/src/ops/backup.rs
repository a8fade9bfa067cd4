//! `sitecast backup --to DIR` and `sitecast restore --from DIR` for the embedded
//! default (a SQLite file and a photo folder), and the lock that tells restore a
//! server is running on the data folder.
//!
//! A backup is taken online. The database goes first, as one snapshot (`VACUUM INTO`),
//! then the photo folder. Photos' files are written before their row and deleted after
//! it, so a photo stored meanwhile has files but no row in the copy (the orphan sweep
//! removes them after a restore), and a photo deleted meanwhile may have its row in
//! the copy but not its files: those rows are dropped from the copy, which then
//! matches the site a moment later. Every row in a backup has its files.
//!
//! Postgres and S3 have better tools of their own (`pg_dump`, fly.io's volume
//! snapshots, bucket versioning); the commands say so instead of half-doing it.

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::store::{backup as sql, now_ms, Store};

const DATABASE_FILE: &str = "sitecast.db";
const PHOTOS_DIR: &str = "photos";
const MANIFEST: &str = "backup.json";
const LOCK_FILE: &str = "sitecast.lock";

/// Held by a running server for its whole life: an exclusive lock on
/// `<data dir>/sitecast.lock`. The kernel drops it when the process ends, however it ends.
pub struct DataLock {
    _file: File,
}

impl DataLock {
    pub fn acquire(data_dir: &Path) -> anyhow::Result<DataLock> {
        std::fs::create_dir_all(data_dir).context("creating the data directory")?;
        let path = data_dir.join(LOCK_FILE);
        let file = File::options().create(true).truncate(false).write(true).open(&path).with_context(|| format!("opening {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(DataLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => {
                bail!("a Sitecast server is running on {}; stop it first", data_dir.display())
            }
            Err(std::fs::TryLockError::Error(err)) => Err(err).with_context(|| format!("locking {}", path.display())),
        }
    }
}

/// What a backup folder holds, written beside the copies as `backup.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: u32,
    pub created_at: i64,
    /// The newest migration the copied database has.
    pub migration: i64,
    pub photos: usize,
    pub photo_files: usize,
    pub photo_bytes: u64,
    /// Whether the photo files are in the backup (`local`) or stayed in the bucket (`s3`).
    pub photo_store: String,
    /// Photos deleted while the backup ran, left out of the copy.
    pub dropped_photos: usize,
}

fn sqlite_only(config: &Config, what: &str) -> anyhow::Result<PathBuf> {
    config.sqlite_path().with_context(|| {
        format!(
            "the database is Postgres: {what} it with Postgres' own tools (pg_dump / pg_restore, or your \
             provider's snapshots); `sitecast backup` and `restore` handle the embedded SQLite file"
        )
    })
}

/// Writes a consistent copy of the database and the photo folder into `to` (see the
/// module comment), while the server may be running.
pub async fn backup(config: &Config, to: &Path) -> anyhow::Result<Manifest> {
    sqlite_only(config, "back up")?;
    if to.exists() && std::fs::read_dir(to).map(|mut d| d.next().is_some()).unwrap_or(true) {
        bail!("{} exists and is not empty; back up into a new folder", to.display());
    }
    std::fs::create_dir_all(to).with_context(|| format!("creating {}", to.display()))?;
    let to = to.canonicalize().context("resolving the backup folder")?;

    let live = Store::open(&config.database_url(), Some(2), false).await.context("opening the database")?;
    let copy_path = to.join(DATABASE_FILE);
    sql::vacuum_into(live.pool(), &copy_path).await.context("copying the database (VACUUM INTO)")?;
    live.close().await;

    let local = config.photo_store == "local";
    let (photo_files, photo_bytes) = if local {
        let (src, dst) = (config.photos_dir(), to.join(PHOTOS_DIR));
        tokio::task::spawn_blocking(move || copy_tree(&src, &dst)).await?.context("copying the photo folder")?
    } else {
        (0, 0)
    };

    let copy = Store::open(&format!("sqlite://{}", copy_path.display()), Some(1), false).await.context("opening the copy")?;
    let keys = sql::photo_keys(copy.pool()).await?;
    let mut dropped = 0;
    if local {
        for (id, key) in &keys {
            if !has_original(&to.join(PHOTOS_DIR).join(key)) {
                sql::forget_photo(copy.pool(), id).await?;
                dropped += 1;
            }
        }
    }
    let migration = sql::applied_migration(copy.pool()).await?;
    copy.close().await;

    let manifest = Manifest {
        format: 1,
        created_at: now_ms(),
        migration,
        photos: keys.len() - dropped,
        photo_files,
        photo_bytes,
        photo_store: config.photo_store.clone(),
        dropped_photos: dropped,
    };
    std::fs::write(to.join(MANIFEST), serde_json::to_vec_pretty(&manifest)?).context("writing backup.json")?;
    Ok(manifest)
}

/// What a restore did.
#[derive(Debug)]
pub struct Restored {
    pub manifest: Manifest,
    /// Where the data it replaced was moved, if there was any.
    pub set_aside: Option<PathBuf>,
}

/// Brings a backup back into this instance's data folder. Refuses while a server runs
/// on it; moves what it replaces aside; migrates the copy if it is older than this build.
pub async fn restore(config: &Config, from: &Path) -> anyhow::Result<Restored> {
    let db_path = sqlite_only(config, "restore")?;
    let manifest: Manifest = serde_json::from_slice(
        &std::fs::read(from.join(MANIFEST)).with_context(|| format!("{} is not a Sitecast backup (no {MANIFEST})", from.display()))?,
    )
    .context("reading backup.json")?;
    if !from.join(DATABASE_FILE).is_file() {
        bail!("{} has no {DATABASE_FILE}", from.display());
    }
    if manifest.photo_store == "local" && config.photo_store != "local" {
        bail!("this backup holds its photos in a folder, but this instance keeps photos in S3");
    }
    let _lock = DataLock::acquire(&config.data_dir)?;

    let photos_dir = config.photos_dir();
    let mut replaced: Vec<PathBuf> = ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| PathBuf::from(format!("{}{suffix}", db_path.display())))
        .filter(|p| p.exists())
        .collect();
    if manifest.photo_store == "local" && photos_dir.exists() {
        replaced.push(photos_dir.clone());
    }
    let set_aside = if replaced.is_empty() {
        None
    } else {
        let aside = config.data_dir.join(format!("before-restore-{}", now_ms()));
        std::fs::create_dir_all(&aside)?;
        for path in &replaced {
            let name = path.file_name().context("a file name")?;
            std::fs::rename(path, aside.join(name)).with_context(|| format!("moving {} aside", path.display()))?;
        }
        Some(aside)
    };

    if let Some(dir) = db_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::copy(from.join(DATABASE_FILE), &db_path).context("copying the database back")?;
    if manifest.photo_store == "local" {
        let (src, dst) = (from.join(PHOTOS_DIR), photos_dir);
        tokio::task::spawn_blocking(move || if src.exists() { copy_tree(&src, &dst).map(|_| ()) } else { std::fs::create_dir_all(&dst) })
            .await?
            .context("copying the photos back")?;
    }
    // A backup from an older build is brought up to this one's schema now.
    let store = Store::open(&config.database_url(), Some(1), true).await.context("opening the restored database")?;
    store.close().await;
    Ok(Restored { manifest, set_aside })
}

/// A photo's folder holds its original (`original.<ext>`).
fn has_original(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(Result::ok).any(|e| e.file_name().to_string_lossy().starts_with("original.")))
        .unwrap_or(false)
}

/// Copies a folder tree; returns (files, bytes). Half-written files (`*.tmp-*`, see
/// `media::local`) are skipped; a file removed while copying is skipped too.
fn copy_tree(src: &Path, dst: &Path) -> std::io::Result<(usize, u64)> {
    std::fs::create_dir_all(dst)?;
    let (mut files, mut bytes) = (0, 0);
    let entries = match std::fs::read_dir(src) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok((0, 0)),
        Err(err) => return Err(err),
    };
    for entry in entries {
        let entry = entry?;
        let (from, to) = (entry.path(), dst.join(entry.file_name()));
        let kind = entry.file_type()?;
        if kind.is_dir() {
            let (f, b) = copy_tree(&from, &to)?;
            files += f;
            bytes += b;
        } else if kind.is_file() && !entry.file_name().to_string_lossy().contains(".tmp-") {
            match std::fs::copy(&from, &to) {
                Ok(n) => {
                    files += 1;
                    bytes += n;
                }
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => return Err(err),
            }
        }
    }
    Ok((files, bytes))
}
