/** A failure a person should read now (announced to screen readers), or nothing. */
export function ErrorLine({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error}
    </p>
  );
}
