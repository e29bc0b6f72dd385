/** Shown when the shell itself could not start (no configuration, say): plain, and in English. */
export function StartupError({ error }: { error: unknown }) {
  return (
    <main className="startup-error" role="alert">
      <h1>Noted could not start</h1>
      <p>{error instanceof Error ? error.message : String(error)}</p>
      <button
        type="button"
        className="ui-button ui-button-primary"
        onClick={() => window.location.reload()}
      >
        Reload
      </button>
    </main>
  );
}
