# json-field.sh: sourced by the drivers in scripts/ (not run on its own).
# field NAME JSON: the value of NAME in one line of `ocsolve ... --json`
# output (a number or a word; the drivers only read flat fields).
field() { sed -E "s/.*\"$1\":\"?([a-z0-9.]+)\"?[,}].*/\1/" <<<"$2"; }
