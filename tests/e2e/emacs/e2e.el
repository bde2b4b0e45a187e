;;; e2e.el --- Emacs (eglot) end-to-end scenario for msprobe-lsp  -*- lexical-binding: t -*-
;;
;; Run by run_e2e.py as: emacs --batch -Q -l e2e.el
;; Env: E2E_SNIPPET (a file holding the README's elisp snippet, evaluated as is),
;;      E2E_FILE (the training script to open), E2E_LINE / E2E_COL (1-based line and
;;      character column of `torch.compile' there), E2E_OUT (result lines),
;;      E2E_ELPA (Debian's system package directory, default /usr/share/emacs/site-lisp/elpa).
;; Works with Debian bookworm's Emacs 28.2 + elpa-eglot 1.9 and later eglot versions.
;; The server is found as "msprobe-lsp" on PATH, exactly as the README's snippet names it.

(require 'cl-lib)

(defvar e2e--out (or (getenv "E2E_OUT") (error "E2E_OUT not set")))
(defvar e2e--events nil "The eglot events buffer, saved to E2E_EVENTS at the end.")

(defun e2e--save-events ()
  (when (and (getenv "E2E_EVENTS") (buffer-live-p e2e--events))
    (with-current-buffer e2e--events
      (let ((coding-system-for-write 'utf-8-unix))
        (write-region (point-min) (point-max) (getenv "E2E_EVENTS") nil 'silent)))))

(defun e2e--emit (fmt &rest args)
  (let ((line (apply #'format fmt args)))
    (with-temp-buffer
      (insert line "\n")
      (let ((coding-system-for-write 'utf-8-unix))
        (write-region (point-min) (point-max) e2e--out t 'silent)))
    (message "e2e: %s" line)))

(defconst e2e--guard 60
  "Seconds any wait may take: a hang guard, not a measure.
Every wait returns as soon as its condition holds, so a slow or loaded
machine never fails the test.")

(defun e2e--wait (pred seconds)
  "Run the event loop until PRED is non-nil or SECONDS pass.
Return the last value of PRED."
  (let ((deadline (+ (float-time) seconds)) (v nil))
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.1))
    v))

(defun e2e--hover-text (contents)
  "Plain text of an LSP hover CONTENTS.
CONTENTS is a MarkupContent, a MarkedString or a vector of them."
  (cond ((stringp contents) contents)
        ((vectorp contents) (mapconcat #'e2e--hover-text contents "\n"))
        ((and (listp contents) (plist-get contents :value)) (plist-get contents :value))
        (t (format "%S" contents))))

(defun e2e--run ()
  (when (file-exists-p e2e--out) (delete-file e2e--out))
  ;; With -Q the site-lisp directories are not on load-path, so package.el does not see
  ;; Debian's elpa-* packages; point it at them as a normal (non -Q) start-up does.
  (require 'package)
  (setq package-directory-list
        (list (or (getenv "E2E_ELPA") "/usr/share/emacs/site-lisp/elpa")))
  (package-initialize)
  (unless (locate-library "eglot") (error "eglot not found (install Debian's elpa-eglot)"))
  ;; The README snippet, evaluated as a user's init file would: before eglot is loaded.
  (load (getenv "E2E_SNIPPET") nil t t)
  (require 'eglot)
  (e2e--emit "EGLOT %s" (or (ignore-errors
                              (package-version-join
                               (package-desc-version (cadr (assq 'eglot package-alist)))))
                            "?"))
  (e2e--emit "SERVER-PROGRAMS-HEAD %S" (car eglot-server-programs))
  (find-file (getenv "E2E_FILE"))
  (python-mode)
  (switch-to-buffer (current-buffer))
  (e2e--emit "MODE %s" major-mode)
  ;; The usual user set-up: (add-hook 'python-mode-hook #'eglot-ensure). eglot-ensure
  ;; connects from post-command-hook, which batch mode never runs: run it once by hand.
  (eglot-ensure)
  (run-hooks 'post-command-hook)
  (let ((server (e2e--wait (lambda () (eglot-current-server)) e2e--guard)))
    (unless server (error "no eglot server for the buffer after %d s" e2e--guard))
    (setq e2e--events (jsonrpc-events-buffer server))
    (e2e--emit "SERVER %s live=%s" (jsonrpc-name server)
               (if (jsonrpc-running-p server) "yes" "no"))
    (e2e--emit "COMMAND %S" (process-command (jsonrpc--process server)))
    ;; Flymake asks eglot's backend for diagnostics when it runs; batch mode has no idle
    ;; timers firing reliably in between, so start a check on each poll until they arrive.
    (let ((diags (e2e--wait (lambda ()
                              (or (flymake-diagnostics)
                                  (progn (ignore-errors (flymake-start)) nil)))
                            e2e--guard)))
      (unless diags (error "no flymake diagnostics from eglot after %d s" e2e--guard))
      (dolist (d diags)
        (let ((beg (flymake-diagnostic-beg d)))
          (save-excursion
            (goto-char beg)
            (e2e--emit "DIAG %d:%d %s %s" (line-number-at-pos) (1+ (- (point) (line-beginning-position)))
                       (flymake-diagnostic-type d)
                       (replace-regexp-in-string "\n" " " (flymake-diagnostic-text d)))))))
    (e2e--emit "LIVE %s" (if (and (eglot-current-server)
                                  (jsonrpc-running-p (eglot-current-server)))
                             "yes" "no"))
    ;; Hover on `torch.compile' (a few characters into it).
    (goto-char (point-min))
    (forward-line (1- (string-to-number (getenv "E2E_LINE"))))
    (forward-char (+ (1- (string-to-number (getenv "E2E_COL"))) 3))
    (let* ((res (jsonrpc-request server :textDocument/hover
                                 (eglot--TextDocumentPositionParams) :timeout e2e--guard))
           (text (if res (e2e--hover-text (plist-get res :contents)) "")))
      (e2e--emit "HOVER %s %s" (if (string-match-p "MSP101" text) "MSP101" "none")
                 (substring (replace-regexp-in-string "\n" " " text)
                            0 (min 160 (length text)))))
    ;; The generateConfig dialogue. The server asks with window/showMessageRequest although
    ;; eglot 1.9 declares no window capabilities; eglot answers each question with a
    ;; completing-read (and confirms the edit with y-or-n-p), which batch mode reads from
    ;; stdin: run_e2e.py types the answers. config.json exists, so this replaces it.
    (let* ((res (eglot-execute-command server "msprobe.generateConfig" (vector (list :overwrite t))))
           (written (plist-get res :written)))
      (e2e--emit "DIALOGUE written=%s" (if (eq written t) "true" written))
      (let ((buf (find-buffer-visiting (expand-file-name "config.json"))))
        (when buf (with-current-buffer buf (save-buffer))))
      (e2e--emit "CONFIG-SAVED"))
    ;; eglot-shutdown sends `shutdown' (jsonrpc-request signals if the server answers with
    ;; an error or not within the timeout: 1.5 s by default, the guard here), then `exit'. Emacs 28's jsonrpc.el (1.0.14) then
    ;; deletes the process at once, without waiting for it to exit by itself, so the
    ;; server's own exit code is not observable here: EXIT is informational.
    (let ((proc (jsonrpc--process server)))
      (eglot-shutdown server nil e2e--guard t)  ; t: keep the events buffer for E2E_EVENTS
      (e2e--emit "SHUTDOWN answered")
      (e2e--wait (lambda () (not (process-live-p proc))) e2e--guard)
      (e2e--emit "EXIT %s %s" (process-status proc) (process-exit-status proc)))))

(condition-case err
    (progn (e2e--run) (e2e--emit "DONE") (e2e--save-events) (kill-emacs 0))
  (error (e2e--emit "FAIL %s" (error-message-string err))
         (e2e--save-events)
         (kill-emacs 1)))
