use clap::Parser;
use protocol::Role;
use sitecast::config::{Cli, Command};
use sitecast::ops;

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if matches!(cli.command, Some(Command::DecodeHeif)) {
        std::process::exit(sitecast::media::heif_worker::run());
    }
    ops::logs::init(cli.config.log_format);
    sitecast::install_crypto_provider();
    let config = cli.config;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            // One server per data folder: `sitecast restore` checks this lock.
            let _lock = ops::backup::DataLock::acquire(&config.data_dir)?;
            let bind = config.bind.clone();
            let public = config.public_url.clone();
            let metrics_bind = config.metrics_bind.clone();
            let state = sitecast::app::build_state(config).await?;
            let running = sitecast::app::serve(state, &bind)?;
            if metrics_bind != "off" {
                // Metrics are for the operator; a taken port must not keep the site down.
                match ops::metrics::serve(running.state.store.clone(), &metrics_bind) {
                    Ok((addr, metrics)) => {
                        tracing::info!(%addr, "metrics at http://{addr}/metrics");
                        actix_web::rt::spawn(metrics);
                    }
                    Err(err) => tracing::error!(error = format!("{err:#}"), "metrics are off"),
                }
            }
            let state = &running.state;
            let times = ops::drain::DrainTimes::from_config(&state.config);
            let stop = ops::drain::on_signal(state.ops.clone(), state.live.clone(), state.store.clone(), running.handle.clone(), times);
            let drain = actix_web::rt::spawn(stop);
            // The address to open, not the socket it listens on (actix logs that one):
            // behind a proxy or on a loopback port they differ.
            tracing::info!(listening = %running.addr, "Sitecast is running: open {public}");
            running.server.await?;
            // The server stops only through the drain (actix's own signal handling is
            // off): let it finish closing the database and say so.
            let _ = drain.await;
        }
        Command::Migrate => {
            let store = sitecast::store::Store::open(&config.database_url(), Some(1), true).await?;
            let at = sitecast::store::backup::applied_migration(store.pool()).await?;
            store.close().await;
            println!("The database is at migration {at}.");
        }
        Command::Backup { to } => {
            let m = ops::backup::backup(&config, &to).await?;
            println!(
                "Backed up to {}: the database (migration {}), {} photos ({} files, {} MB).",
                to.display(),
                m.migration,
                m.photos,
                m.photo_files,
                m.photo_bytes / 1_000_000
            );
            if m.photo_store != "local" {
                println!("Photos stay in the S3 bucket: turn on the bucket's versioning to keep earlier copies.");
            }
            if m.dropped_photos > 0 {
                println!("{} photos deleted while the backup ran are left out of it.", m.dropped_photos);
            }
        }
        Command::Restore { from } => {
            let r = ops::backup::restore(&config, &from).await?;
            println!("Restored {} photos from {} into {}.", r.manifest.photos, from.display(), config.data_dir.display());
            if let Some(aside) = r.set_aside {
                println!("The data it replaced was moved to {}.", aside.display());
            }
        }
        Command::Invite { email, role, name, phone } => {
            let role = Role::parse(&role).ok_or_else(|| anyhow::anyhow!("role must be admin, builder or homeowner"))?;
            let state = sitecast::app::build_state(config).await?;
            let (user, link) = state
                .auth
                .invite(&sitecast::domain::identity::auth::InviteInput {
                    email: &email,
                    role,
                    name: &name,
                    first_name: None,
                    last_name: None,
                    phone: phone.as_deref(),
                    builder_id: None,
                    // A builder invited from the command line starts their own company.
                    company: (role == protocol::Role::Builder).then_some(sitecast::domain::identity::auth::CompanyJoin::Own),
                })
                .await
                .map_err(|e| anyhow::anyhow!("{}", e.api.message))?;
            println!("Invited {} as {}. Invitation link:\n{link}", user.email, role.as_str());
            // Give the outbox worker a moment to hand the invite to the transport.
            tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        }
        Command::Seed { projects, photos_per_project, users, visit_size, days } => {
            use sitecast::domain::seeding::bulk;
            let store = sitecast::store::Store::open(&config.database_url(), Some(4), config.migrate_on_start).await?;
            let photos = sitecast::app::photo_store(&config)?;
            let passwords = sitecast::domain::shared::passwords::Passwords::owasp()?;
            let spec = bulk::BulkSpec { projects, photos_per_project, users, visit_size, days };
            let started = std::time::Instant::now();
            let made = bulk::seed(&store, photos.as_ref(), &passwords, &spec, &mut |done, all| {
                if done % 10 == 0 || done == all {
                    eprintln!("{done}/{all} projects");
                }
            })
            .await
            .map_err(|e| anyhow::anyhow!("{}", e.api.message))?;
            store.close().await;
            println!(
                "Seeded {} projects with {} photos and {users} homeowners in {:.1} s (tag {}).",
                made.project_ids.len(),
                made.photos,
                started.elapsed().as_secs_f64(),
                made.tag
            );
            println!("Sign in with password {:?} as:", bulk::BULK_PASSWORD);
            println!("  admin      {}", made.admin_email);
            println!("  builder    {}", made.owner_email);
            println!("  homeowner  {}", made.homeowner_email);
            if let Some(first) = made.project_ids.first() {
                println!("First project: {}/projects/{first}", config.public_url.as_str().trim_end_matches('/'));
            }
        }
        // Run above, before logging starts: its stdout is the exchange with the server.
        Command::DecodeHeif => {}
        Command::ResetFactors { email } => {
            let state = sitecast::app::build_state(config).await?;
            sitecast::domain::identity::security::reset_factors_of(&state.svc, &email).await.map_err(|e| anyhow::anyhow!("{}", e.api.message))?;
            println!("Removed the second factors of {email}; they sign in with their password and were mailed.");
            tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        }
    }
    Ok(())
}
