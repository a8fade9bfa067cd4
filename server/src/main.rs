use clap::Parser;
use protocol::Role;
use sitecast::config::{Cli, Command};
use tracing_subscriber::EnvFilter;

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn")))
        .init();
    sitecast::install_crypto_provider();
    let cli = Cli::parse();
    let config = cli.config;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            let bind = config.bind.clone();
            let public = config.public_url.clone();
            let state = sitecast::app::build_state(config).await?;
            let running = sitecast::app::serve(state, &bind)?;
            // The address to open, not the socket it listens on (actix logs that one):
            // behind a proxy or on a loopback port they differ.
            tracing::info!(listening = %running.addr, "Sitecast is running: open {public}");
            running.server.await?;
        }
        Command::Invite { email, role, name, phone } => {
            let role = Role::parse(&role).ok_or_else(|| anyhow::anyhow!("role must be admin, builder or homeowner"))?;
            let state = sitecast::app::build_state(config).await?;
            let (user, link) = state
                .auth
                .invite(&sitecast::domain::auth::InviteInput {
                    email: &email,
                    role,
                    name: &name,
                    first_name: None,
                    last_name: None,
                    phone: phone.as_deref(),
                    builder_id: None,
                })
                .await
                .map_err(|e| anyhow::anyhow!("{}", e.api.message))?;
            println!("Invited {} as {}. Invitation link:\n{link}", user.email, role.as_str());
            // Give the mail worker a moment to hand the invite to the transport.
            tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        }
    }
    Ok(())
}
