// "Copy the link" beside a link shown once (an invitation, a new-password link): copies the field's text and says so.
// Without JavaScript the field is still there to select by hand. What it says is in the button's data attributes,
// in the page's language.
document.querySelectorAll("[data-copy]").forEach((button) => {
  const field = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.copyStatus);
  if (!field) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    field.select();
    let copied = false;
    try {
      await navigator.clipboard.writeText(field.value);
      copied = true;
    } catch (error) {
      copied = document.execCommand && document.execCommand("copy");
    }
    if (status) status.textContent = copied ? button.dataset.copied : button.dataset.copyFailed;
  });
});
