/**
 * The renderer's Content-Security-Policy, sent by both shells (the Electron protocol handler and
 * `modpak serve`). Scripts only from the app itself (no inline, no eval); previews use data: and blob:
 * URLs for images and sound; no plugins, frames, forms or base-URL tricks. Styles allow 'unsafe-inline'
 * because Vue binds style attributes and the virtual list positions rows with them.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
