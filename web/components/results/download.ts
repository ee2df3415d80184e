/**
 * Saves text as a file from the browser (spec §7: exports happen client-side): a Blob, an
 * object URL and a temporary <a download>. The URL is revoked once the browser has started
 * the download.
 */
export function downloadText(text: string, filename: string, type: string): void {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.style.display = "none";
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
