import { Download, Printer } from 'lucide-react';
import { recoveryCodesFile, recoveryCodesFileName } from '../../lib/recoveryCodes';
import { useAppStore } from '../../store';
import { Button } from '../ui/Button';
import { DialogActions } from '../ui/Dialog';
import { Notice } from '../ui/Notice';

function download(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Prints the codes alone (not the page behind the dialog), from a frame of their own. */
function print(text: string) {
  const frame = document.createElement('iframe');
  frame.setAttribute('aria-hidden', 'true');
  frame.style.cssText = 'position:fixed;width:0;height:0;border:0;right:0;bottom:0';
  document.body.append(frame);
  const doc = frame.contentDocument;
  const win = frame.contentWindow;
  if (!doc || !win) {
    frame.remove();
    return;
  }
  const pre = doc.createElement('pre');
  pre.textContent = text;
  pre.style.cssText = 'font: 14px/1.6 ui-monospace, monospace; margin: 2rem;';
  doc.body.append(pre);
  win.addEventListener('afterprint', () => frame.remove());
  win.focus();
  win.print();
  // Browsers that print without an afterprint event still lose the frame.
  window.setTimeout(() => frame.remove(), 60_000);
}

/**
 * The ten recovery codes, shown this once. Each signs in once without the
 * app; the user downloads or prints them and says they have kept them.
 */
export function RecoveryCodes({ codes, onDone, doneLabel = 'I have saved them' }: { codes: string[]; onDone: () => void; doneLabel?: string }) {
  const email = useAppStore((s) => s.user?.email ?? '');
  const text = () => recoveryCodesFile(codes, email, window.location.origin, new Date());
  return (
    <div className="space-y-4">
      <Notice tone="info">
        Keep these somewhere safe, like a password manager. Each code signs you in once if you lose your phone. You will not see them again.
      </Notice>
      <ol
        aria-label="Recovery codes"
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-xl border border-slate-200 bg-slate-50 px-4 py-4 font-mono text-sm text-slate-900 sm:px-6 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-100"
      >
        {codes.map((code) => (
          <li key={code} className="text-center tracking-wide select-all">
            {code}
          </li>
        ))}
      </ol>
      <div className="grid grid-cols-2 gap-2">
        <Button variant="outline" onClick={() => download(text(), recoveryCodesFileName(window.location.origin))}>
          <Download className="size-4" aria-hidden="true" />
          Download
        </Button>
        <Button variant="outline" onClick={() => print(text())}>
          <Printer className="size-4" aria-hidden="true" />
          Print
        </Button>
      </div>
      <DialogActions className="mt-2">
        <Button variant="secondary" onClick={onDone}>
          {doneLabel}
        </Button>
      </DialogActions>
    </div>
  );
}
