// Shown when the address carried settings the lab could not use.
export function ProblemsBanner({ problems, onDismiss }: { problems: string[]; onDismiss: () => void }) {
  return (
    <section className="problems" role="alert" aria-labelledby="problems-title">
      <h2 id="problems-title">Part of this address could not be used</h2>
      <p>The rest of the screen is as the address describes; these settings are back at their defaults:</p>
      <ul>
        {problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  );
}
