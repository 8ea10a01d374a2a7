# extract.awk -- writes the runnable blocks of a page (README.md,
# docs/errors.md, docs/api/*.md) into `dir`, named after `page` (default
# readme):
#   ```c    -> <page>_cN.c        ```lua -> <page>_luaN.lua
#   ```lua gpu -> <page>_gpuN.lua (runs only where a GPU answers)
#   the next fenced block, if it is ```text (prose between allowed) -> its
#   <page>_<lang>N.out, the exact stdout the code block must print.
# Other fenced blocks (```sh, ```text elsewhere) are skipped.
# Usage: awk -v dir=OUT [-v page=errors] -f extract.awk PAGE.md
inblk && /^```[ \t]*$/ { inblk = 0; close(file); last = (kind == "code") ? base : ""; next }
inblk                  { print > file; next }
/^```(c|lua|lua gpu)[ \t]*$/ {
  lang = $0; sub(/^```/, "", lang); gsub(/[ \t]+$/, "", lang)
  ext = (lang == "c") ? "c" : "lua"
  if (lang == "lua gpu") lang = "gpu"
  n[lang]++; base = dir "/" (page == "" ? "readme" : page) "_" lang n[lang]
  open_block("code", base "." ext); next
}
/^```text[ \t]*$/ && last != "" { open_block("text", last ".out"); next }
/^```/                 { open_block("other", "/dev/null"); next }
function open_block(k, f) { kind = k; file = f; inblk = 1; printf "" > file }
