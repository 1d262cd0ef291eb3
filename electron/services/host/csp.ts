/**
 * The renderer's Content-Security-Policy, sent by both shells (the Electron protocol handler and
 * `modpak serve`). Scripts only from the app itself (no inline, no eval); previews use data: and blob:
 * URLs for images and sound; no plugins, frames, forms or base-URL tricks. Styles only from the app's own
 * stylesheets: Vue and the virtual list set styles through the CSSOM (element.style), which the policy
 * does not restrict, so no 'unsafe-inline' is needed (the browser tests fail on any CSP violation).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
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
