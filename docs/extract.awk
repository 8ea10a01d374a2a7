# extract.awk -- writes the runnable blocks of README.md into `dir`:
#   ```c    -> readme_cN.c        ```lua -> readme_luaN.lua
#   the next fenced block, if it is ```text (prose between allowed) -> its
#   readme_<lang>N.out, the exact stdout the code block must print.
# Other fenced blocks (```sh, ```text elsewhere) are skipped.
# Usage: awk -v dir=OUT -f extract.awk README.md
inblk && /^```[ \t]*$/ { inblk = 0; close(file); last = (kind == "code") ? base : ""; next }
inblk                  { print > file; next }
/^```(c|lua)[ \t]*$/   {
  lang = $0; sub(/^```/, "", lang); gsub(/[ \t]/, "", lang)
  n[lang]++; base = dir "/readme_" lang n[lang]
  open_block("code", base "." lang); next
}
/^```text[ \t]*$/ && last != "" { open_block("text", last ".out"); next }
/^```/                 { open_block("other", "/dev/null"); next }
function open_block(k, f) { kind = k; file = f; inblk = 1; printf "" > file }
