#!/usr/bin/env bash
# tests/docs.t - README.md and docs/*.md agree with the scripts and with
# patches/ (issue 26, point 5: docs that cannot drift).  One check per page
# and kind; a failing check prints the offending text.
#
# The docs number the patches of the stable line, patches/6.12/ (the line
# with every topic), whatever BASE says: "memcg 1/5" and "0020" are that
# line's, and docs/series.md's 7.3 table lists those same patches with what
# each is or is to become on 7.3.  A patch of the 7.3 line is written with
# the line in front: "7.3 ptlock 1/3".
#
# What it checks:
#   - N/M: every "<topic> N/M" (topic from patches/6.12/series) has M = the
#     topic's patch count (patches/6.12/<topic>/series) and 1 <= N <= M; every
#     "all N patches" has N = the line's patch count.  Every "7.3 <topic> N/M"
#     has a topic of patches/7.3/series, M = its patch count there and
#     1 <= N <= M (and is left out of the 6.12 checks).
#   - patch numbers: a 4-digit number tied to a topic mention ("memcg 1/5
#     (0020)", "memcg 1/5, patch 0020", "0020 (memcg 1/5)": only blanks,
#     ",;:(" and "patch " between them) is the lab tree's number of that
#     patch (the topics in patches/6.12/series order, each topic's patches in
#     its series: lab/stages/tree.sh); docs/series.md's ranges ("slub 1–5 is
#     0005–0009") and topic sizes ("`slub` (5)") are today's; its table has
#     one row per patch, in tree order, and each row's subject matches its
#     patch's Subject (same prefix, and more words shared with it than with
#     any other patch of that prefix).
#   - the 7.3 line: docs/series.md's "## The mainline line: 7.3" table has
#     one row per patch of the 6.12 line, in tree order ("| ptlock 1/4
#     (0001) ..."), each with a status of the list it gives (ported, delta
#     (to port), superseded, moot on x86, to re-measure, redesign); a
#     **ported** row names the patch it became, "7.3 <topic> N/M, file
#     NNNN", of its own topic: patches/7.3/<topic>/series has M patches and
#     its Nth is NNNN-*.patch, and no two rows name the same one; every topic
#     of patches/7.3/series has a ported row; while patches/7.3/series names
#     no topic, that section says "nothing is ported", and once it names
#     one, it no longer does.
#   - paths: every build/... and patches/... path on a page is in a line's
#     folder (build/6.12/..., patches/7.3/..., build/<line>/...: the lines
#     of lab/lib/common.sh's LINES), or build/ or patches/ itself
#     (docs/lab-internals.md gives the convention).
#   - knob defaults: "`VAR` ... (default N" and "`VAR`, default X" in the
#     docs, knob table rows ("| `VAR` | ... | `X` |") and the numeric
#     "[VAR=N]" of the Makefile's help (for knobs whose default is not a 0/1
#     switch) name a default that lab/*.sh gives VAR as ${VAR:-default}
#     ($DEFAULT_CONFIGS read from lab/lib/common.sh, $LINE_VMTESTS from the
#     default line's patches/<line>/line.env).
#   - bench bounds: only in the workloads' meta files; docs/benchmarks.md
#     points at lab/stages/bench.sh --list, which prints them.
#   - lists: docs/lab-internals.md's "## Scripts" table has a row for every
#     lab/*/*.sh and lab/*/*.py, its "## Config fragments" table one for every
#     configs/*.config.
#   - make check's duration is quoted in docs/results.md only: no sentence
#     of another page names make check next to a time ("NN s", "NN min",
#     "NNmNNs", "NN cold"), except as the host's other load ("while a `make
#     check` ran").
#
# The rule for history: inside parentheses, everything from the word "then"
# to the closing ")" is historical and not checked, so old numbering is
# written as "vmalloc 9/10 (then 9/9)" or "slub 1/5 (0005; then 0004)".
# Everything else is read as true of today's tree and scripts.
# Paragraphs are joined before matching, so a mention may wrap.
#
# TOP can point at a copy: the checked files are README.md, docs/,
# patches/, lab/ and the Makefile under it.  (tests/tap.sh's LP, the line
# under test, is not used here: BASE=7.3 prove tests/docs.t checks the same.)
# Needs: bash, awk, grep, sed.  Under a second; writes only in a mktemp
# folder.
source "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# say_bad: show the offending lines (stdin) as TAP comments; fail if any
say_bad() {
	local out
	out=$(cat)
	[ -z "$out" ] && return 0
	sed 's/^/#   /' <<< "$out" >&2
	return 1
}

# --- the series: topics, counts, tree numbers, subjects ---
# the stable line, whose patches the docs number (see the header)
SP=$TOP/patches/6.12
series_lines() { grep -v '^[[:space:]]*#' "$1" | grep -v '^[[:space:]]*$'; }
mapfile -t topics < <(series_lines "$SP/series")
declare -A count first
total=0
: > "$tmp/subjects"
for t in "${topics[@]}"; do
	first[$t]=$((total + 1))
	n=0
	while read -r p; do
		n=$((n + 1))
		total=$((total + 1))
		# number, subject prefix, subject words, changelog words
		awk -v n="$(printf %04d $total)" '
			function norm(x) { x = tolower(x); gsub(/[^a-z0-9_]+/, " ", x); return x }
			/^Subject:/ { s = $0; sub(/^Subject: *(\[[^]]*\] *)?/, "", s); insub = 1; next }
			insub && /^[ \t]/ { s = s $0; next }
			insub { insub = 0; split(s, a, ":"); pre = a[1]; subj = s; sub(/^[^:]*:/, "", subj); inbody = 1; next }
			inbody && /^---$/ { exit }
			inbody { body = body " " $0 }
			END { print n "\t" pre "\t" norm(subj) "\t" norm(body) }' "$SP/$t/$p" >> "$tmp/subjects"
	done < <(series_lines "$SP/$t/series")
	count[$t]=$n
done
topic_re=$(IFS='|'; echo "${topics[*]}")
check "patches/6.12/series names topics, each with patches (${topics[*]}: $total)" test "$total" -gt 0

# --- the pages, one paragraph a line, history taken out ---
pages=("$TOP/README.md" "$TOP"/docs/*.md)
# flat FILE: paragraphs and list items joined into one line each; table
# rows, headings and code lines stay lines; "(... then ...)" tails removed
flat() {
	awk '
		function flush() { if (buf != "") print buf; buf = "" }
		/^```/ { flush(); print; code = !code; next }
		code { print; next }
		/^[ \t]*$/ { flush(); print ""; next }
		/^\|/ || /^#/ { flush(); print; next }
		/^[-*] / || /^[0-9]+\. / { flush(); buf = $0; next }
		{ sub(/^[ \t]+/, ""); buf = (buf == "" ? $0 : buf " " $0) }
		END { flush() }' "$1" | sed -E 's/\bthen [^()]*\)/)/g'
}
for f in "${pages[@]}"; do
	flat "$f" > "$tmp/${f##*/}.flat"
done

# --- the 7.3 line's patches: "7.3 <topic> N/M" ---
SP73=$TOP/patches/7.3
mapfile -t topics73 < <(series_lines "$SP73/series")
declare -A count73
for t in "${topics73[@]}"; do
	count73[$t]=$(series_lines "$SP73/$t/series" | wc -l)
done
for f in "${pages[@]}"; do
	rel=${f#"$TOP"/}
	bad=$(grep -oE '\b7\.3 [a-z_]+ [0-9]+/[0-9]+\b' "$tmp/${f##*/}.flat" | sort -u | while read -r _ t nm; do
		n=${nm%/*} m=${nm#*/}
		if [ -z "${count73[$t]:-}" ]; then
			echo "'7.3 $t $nm': patches/7.3/series has no topic $t"
		elif [ "$m" != "${count73[$t]}" ] || [ "$n" -lt 1 ] || [ "$n" -gt "$m" ]; then
			echo "'7.3 $t $nm': $t has ${count73[$t]} patches on 7.3"
		fi
	done)
	check "$rel: every '7.3 <topic> N/M' is a patch of patches/7.3" say_bad <<< "$bad"
	# the 6.12 checks below do not read them
	sed -Ei 's#\b7\.3 ([a-z_]+) ([0-9]+)/([0-9]+)\b#7.3 \1 \2-of-\3#g' "$tmp/${f##*/}.flat"
done

# --- N/M and "all N patches" ---
for f in "${pages[@]}"; do
	rel=${f#"$TOP"/}
	bad=$(grep -oE "\b($topic_re) [0-9]+/[0-9]+\b" "$tmp/${f##*/}.flat" | sort -u | while read -r t nm; do
		n=${nm%/*} m=${nm#*/}
		[ "$m" = "${count[$t]}" ] && [ "$n" -ge 1 ] && [ "$n" -le "$m" ] ||
			echo "'$t $nm': $t has ${count[$t]} patches"
	done
	grep -oE '\ball [0-9]+ patches\b' "$tmp/${f##*/}.flat" | sort -u | while read -r _ n _; do
		[ "$n" = "$total" ] || echo "'all $n patches': the series has $total"
	done)
	check "$rel: every '<topic> N/M' and 'all N patches' is today's series" say_bad <<< "$bad"
done

# --- 4-digit patch numbers tied to a topic mention ---
# gnum TOPIC N: the tree's number of patch N of TOPIC
gnum() { printf '%04d' $((first[$1] + $2 - 1)); }
for f in "${pages[@]}"; do
	rel=${f#"$TOP"/}
	bad=$({
		grep -oE "\b($topic_re) [0-9]+/[0-9]+[ ,;:(]*(patch )?[0-9]{4}\b" "$tmp/${f##*/}.flat" |
			sed -E 's#^([a-z]+) ([0-9]+)/[0-9]+.*([0-9]{4})$#\1 \2 \3 &#'
		grep -oE "\b[0-9]{4}[ ,;:()]*($topic_re) [0-9]+/[0-9]+" "$tmp/${f##*/}.flat" |
			sed -E 's#^([0-9]{4}).*\b([a-z]+) ([0-9]+)/[0-9]+$#\2 \3 \1 &#'
	} | sort -u | while read -r t n num text; do
		[ -n "${first[$t]:-}" ] && [ "$n" -le "${count[$t]}" ] || continue # the N/M check says why
		[ "$num" = "$(gnum "$t" "$n")" ] || echo "'$text': $t $n is $(gnum "$t" "$n")"
	done)
	check "$rel: patch numbers next to '<topic> N/M' are the tree's" say_bad <<< "$bad"
done
sf=$tmp/series.md.flat
bad=$(for t in "${topics[@]}"; do
	c=${count[$t]} a=$(gnum "$t" 1) b=$(gnum "$t" "${count[$t]}")
	grep -qE "\b$t 1[–-]$c is $a[–-]$b\b" "$sf" || echo "no '$t 1–$c is $a–$b'"
	grep -qE "\`$t\` \($c( patches)?\)" "$sf" || echo "no '\`$t\` ($c)' (its patch count)"
done)
check "docs/series.md: each topic's size and range of numbers" say_bad <<< "$bad"
grep -oE '^\| [0-9]{4} ' "$TOP/docs/series.md" | tr -dc '0-9\n' > "$tmp/rows"
check "docs/series.md: one table row per patch, in tree order" \
	bash -c 'diff <(seq -f %04g 1 "$1") "$2" | sed "s/^/#   /" >&2; [ "${PIPESTATUS[0]}" = 0 ]' _ "$total" "$tmp/rows"
bad=$(grep -E '^\| [0-9]{4} ' "$TOP/docs/series.md" | awk -F'|' '{ print $2 }' | sed 's/^ //' |
	awk -v W="$tmp/subjects" '
	BEGIN {
		FS = "\t"
		while ((getline l < W) > 0) { split(l, f, "\t"); num[++np] = f[1]; pre[f[1]] = f[2]; sj[f[1]] = " " f[3] " "; bd[f[1]] = " " f[4] " " }
		FS = " "
		split("and the for with from its own one off are not add that this", sw, " ")
		for (i in sw) stop[sw[i]] = 1
	}
	{
		id = $1; rest = substr($0, 6); split(rest, a, ":"); rp = a[1]
		row = tolower(rest); sub(/^[^:]*:/, "", row); gsub(/[^a-z0-9_]+/, " ", row)
		nw = split(row, w, " ")
		best = ""; bs = -1; second = -1
		for (i = 1; i <= np; i++) {
			k = num[i]
			if (pre[k] != rp) continue
			sc = 0
			for (j = 1; j <= nw; j++) if (length(w[j]) >= 3 && !(w[j] in stop)) {
				if (index(sj[k], " " w[j] " ")) sc += 3; else if (index(bd[k], " " w[j] " ")) sc++
			}
			if (sc > bs) { second = bs; bs = sc; best = k } else if (sc > second) second = sc
		}
		if (best != id || bs <= second)
			print "row " id " (" rp ": ...) reads like patch " (best == "" ? "none with that prefix" : best)
	}')
check "docs/series.md: each row's subject is its patch's" say_bad <<< "$bad"

# --- the 7.3 line's table in docs/series.md ---
sec73=$(awk '/^## / { on = ($0 == "## The mainline line: 7.3") } on' "$TOP/docs/series.md")
# the 6.12 patches in tree order, as "topic N/M (NNNN)"
for t in "${topics[@]}"; do
	for ((i = 1; i <= count[$t]; i++)); do echo "$t $i/${count[$t]} ($(gnum "$t" "$i"))"; done
done > "$tmp/want73"
grep -oE "^\| ($topic_re) [0-9]+/[0-9]+ \([0-9]{4}\)" <<< "$sec73" | sed 's/^| //' > "$tmp/rows73"
check "docs/series.md: the 7.3 table has one row per 6.12 patch, in tree order" \
	bash -c 'diff "$1" "$2" | sed "s/^/#   /" >&2; [ "${PIPESTATUS[0]}" = 0 ]' _ "$tmp/want73" "$tmp/rows73"
bad=$(grep -E "^\| ($topic_re) [0-9]+/[0-9]+ " <<< "$sec73" | awk -F'|' '{
		st = $(NF - 1); sub(/^ */, "", st)
		if (st !~ /^\*\*(ported|delta \(to port\)|superseded|moot on x86|to re-measure|dropped|redesign)\*\*/)
			print "row \"" substr($2, 2, 20) "...\": status \"" substr(st, 1, 30) "\" is not one of the list" }')
check "docs/series.md: each 7.3 row's status is one of the list" say_bad <<< "$bad"
# ported rows: "| ptlock 1/4 (0001) ... | **ported**: 7.3 ptlock 1/3, file 0001 ..."
bad=$(grep -E "^\| ($topic_re) [0-9]+/[0-9]+ " <<< "$sec73" | awk -F'|' '{
		st = $(NF - 1); sub(/^ */, "", st)
		if (st ~ /^\*\*ported\*\*/) { split($2, a, " "); print a[1] "\t" st }
	}' | while IFS=$'\t' read -r t st; do
		nm=$(grep -oE "\b7\.3 $t [0-9]+/[0-9]+, file [0-9]{4}\b" <<< "$st" | head -n1)
		if [ -z "$nm" ]; then
			echo "a ported $t row names no '7.3 $t N/M, file NNNN': ${st:0:60}"
			continue
		fi
		read -r _ _ n_m _ num <<< "$nm"
		n_m=${n_m%,} n=${n_m%/*} m=${n_m#*/}
		[ -n "${count73[$t]:-}" ] || { echo "'$nm': patches/7.3/series has no topic $t"; continue; }
		[ "$m" = "${count73[$t]}" ] && [ "$n" -ge 1 ] && [ "$n" -le "$m" ] ||
			{ echo "'$nm': $t has ${count73[$t]} patches on 7.3"; continue; }
		p=$(series_lines "$SP73/$t/series" | sed -n "${n}p")
		[ -f "$SP73/$t/$p" ] && [ "${p:0:5}" = "$num-" ] ||
			echo "'$nm': patch $n of patches/7.3/$t/series is '$p'"
		echo "DUP $t $n" # counted below
	done)
dups=$(grep '^DUP ' <<< "$bad" | sort | uniq -d | sed 's/^DUP \(.*\) \(.*\)$/two ported rows name 7.3 \1 patch \2/')
bad=$( { grep -v '^DUP ' <<< "$bad"; echo "$dups"; } | grep -v '^$')
check "docs/series.md: each ported 7.3 row names a patch of patches/7.3, once" say_bad <<< "$bad"
bad=$(for t in "${topics73[@]}"; do
	grep -qE "^\| $t [0-9]+/[0-9]+ .*\| \*\*ported\*\*[^|]*\|$" <<< "$sec73" ||
		echo "$t is in patches/7.3/series, but no row of the 7.3 table says it is ported"
done)
check "docs/series.md: every topic of patches/7.3/series has a ported row" say_bad <<< "$bad"
n73=${#topics73[@]}
if [ "$n73" = 0 ]; then
	check "docs/series.md says nothing is ported to 7.3 (patches/7.3/series names no topic)" \
		grep -qiE 'nothing is ported|no topic is ported' <<< "$sec73"
else
	check "docs/series.md's 7.3 section no longer says nothing is ported (patches/7.3/series names $n73 topics)" \
		bash -c '! grep -qiE "nothing is ported|no topic is ported" <<< "$1"' _ "$sec73"
fi

# --- paths: in a line's folder (build/qemu10, lab/stages/qemu.sh's QEMU, is no
# line's: the one shared folder) ---
lines=$LINES
line_re=$(sed 's/\./\\./g; s/ /|/g' <<< "$lines")
check "lab/lib/common.sh names the lines ($lines)" test -n "$line_re"
for f in "${pages[@]}"; do
	rel=${f#"$TOP"/}
	bad=$(grep -oE "(^|[^A-Za-z0-9_.-])(build|patches)/[^] \`)\"',;:]*" "$tmp/${f##*/}.flat" | sed -E 's#^[^bp]##' |
		grep -vE "^(build|patches)/((($line_re)|<line>)(/|$)|$)|^build/qemu10(/|$)" | sort -u |
		sed 's/$/: not in a line'"'"'s folder (build\/6.12\/..., patches\/<line>\/...)/')
	check "$rel: every build/ and patches/ path is in a line's folder" say_bad <<< "$bad"
done

# --- knob defaults ---
# defaults VAR: the distinct non-empty literal defaults lab/*.sh give VAR
defaults() {
	local v=$1 dc dl lv
	dc=$(sed -n 's/^DEFAULT_CONFIGS="\(.*\)"$/\1/p' "$TOP/lab/lib/common.sh")
	# lab/stages/run.sh's VMTESTS defaults to the line's LINE_VMTESTS: the default line's
	dl=$(sed -n 's/^DEFAULT_BASE=//p' "$TOP/lab/lib/common.sh")
	lv=$(sed -n 's/^LINE_VMTESTS="\(.*\)"$/\1/p' "$TOP/patches/$dl/line.env" 2>/dev/null)
	grep -ohE "\\\$\{$v:-[^}]*\}" "$TOP"/lab/*/*.sh | sed -E "s/^\\\$\{$v:-//; s/\}$//" |
		sed "s/^\\\$DEFAULT_CONFIGS\$/$dc/; s/^\\\$LINE_VMTESTS\$/$lv/" | grep -v '^$' | grep -v '[$(]' | sort -u
}
# default_ok VAR VALUE WHERE: VALUE is one of VAR's defaults (or VAR has none)
default_ok() {
	local d
	d=$(defaults "$1")
	[ -z "$d" ] && return 0
	grep -qxF -- "$2" <<< "$d" && return 0
	echo "$3: $1 default '$2', lab/ says '$(tr '\n' ' ' <<< "$d" | sed 's/ $//')'"
}
for f in "${pages[@]}"; do
	rel=${f#"$TOP"/}
	bad=$({
		grep -oE '`[A-Z][A-Z0-9_]*`[^`()]{0,40}\(default:? [0-9]+' "$tmp/${f##*/}.flat" |
			sed -E 's/^`([A-Z0-9_]+)`.*default:? ([0-9]+)$/\1 \2/'
		grep -oE '`[A-Z][A-Z0-9_]*`, default `[^`]+`' "$tmp/${f##*/}.flat" |
			sed -E 's/^`([A-Z0-9_]+)`, default `([^`]+)`$/\1 \2/'
		# knob table rows: | `VAR` or `VAR=...` | meaning | default |
		grep -E '^\| `[A-Z][A-Z0-9_]*(=[^`]*)?` \|[^|]*\|[^|]+\|$' "$tmp/${f##*/}.flat" |
			sed -E 's/^\| `([A-Z0-9_]+)[=`][^|]*\|[^|]*\| *([^|]*[^ |]) *\|$/\1 \2/; s/`//g'
	} | sort -u | while read -r v val; do default_ok "$v" "$val" "'\`$v\`: $val'"; done)
	check "$rel: every knob default it quotes is lab/'s" say_bad <<< "$bad"
done
bad=$(awk '!/^#/ { exit } { print }' "$TOP/Makefile" | grep -oE '\[[A-Z][A-Z0-9_]*=[0-9]+\]' | tr -d '[]' | sort -u |
	while IFS== read -r v val; do
		d=$(defaults "$v")
		[ -n "$d" ] && ! grep -qvxE '[01]' <<< "$d" && continue # a 0/1 switch: [VAR=1] is its other value
		default_ok "$v" "$val" "Makefile help [$v=$val]"
	done)
check "Makefile help: every [VAR=N] of a numeric knob is its default" say_bad <<< "$bad"

# --- bench bounds: in the workloads' meta files only ---
# docs/benchmarks.md points at lab/stages/bench.sh --list instead of a copy
# of the bounds; --list prints every folder's summary and the bounds of its
# count fields, from its meta
check "docs/benchmarks.md keeps no copy of the workloads' bounds" \
	bash -c '! grep -qE "^\| item field \| range \|$" "$1" && grep -qF "lab/stages/bench.sh --list" "$1"' _ "$TOP/docs/benchmarks.md"
"$TOP/lab/stages/bench.sh" --list > "$tmp/list" 2>&1
bad=$(for m in "$TOP"/bench/programs/*/meta; do
	w=$(basename "$(dirname "$m")")
	grep -qF "    $(sed -n 's/^summary=//p' "$m")" "$tmp/list" || echo "bench/programs/$w: its summary is not in --list"
	sed -n -E 's/^(param|optional)=count ([A-Z][A-Z0-9_]*) ([0-9]+) ([0-9]+).*$/\2: \3 to \4/p' "$m" | while read -r f; do
		grep -qF "    $f" "$tmp/list" || echo "bench/programs/$w: '$f' is not in --list"
	done
done)
check "lab/stages/bench.sh --list: every workload's summary and bounds, from its meta" say_bad <<< "$bad"

# --- script and fragment lists ---
li=$TOP/docs/lab-internals.md
section() { awk -v h="$2" '/^## / { on = ($0 == h) } on' "$1"; }
bad=$(for s in "$TOP"/lab/*/*.sh "$TOP"/lab/*/*.py; do
	section "$li" "## Scripts" | grep -qF "| \`${s#"$TOP/"}\` |" || echo "${s#"$TOP/"}"
done)
check "docs/lab-internals.md's Scripts table lists every lab/*/*.sh and lab/*/*.py" say_bad <<< "$bad"
bad=$(for c in "$TOP"/configs/*.config "$TOP"/configs/*/*.config; do
	n=${c#"$TOP"/configs/}
	# a line's own mmscale.config is the shared row's
	[ "${n#*/}" != mmscale.config ] || n=mmscale.config
	section "$li" "## Config fragments" | grep -qF "| \`$n\` |" || echo "configs/$n"
done)
check "docs/lab-internals.md's Config fragments table lists every configs/*.config and configs/<line>/*.config" say_bad <<< "$bad"

# --- make check's duration: docs/results.md only ---
dur='\b[0-9]+([.,][0-9]+)? ?(s|sec|seconds|min|mins|minutes|h|hours)\b|\b[0-9]+m[0-9]+s\b|\b[0-9]+ (cold|warm)\b|\b[0-9]+ of CI'
for f in "${pages[@]}"; do
	[ "${f##*/}" = results.md ] && continue
	rel=${f#"$TOP"/}
	bad=$(grep -v '^```' "$tmp/${f##*/}.flat" | sed 's/\([.;]\) /\1\n/g' | grep -i 'make check' |
		grep -viE '(while|as) (a |the )?`?make check`? ran' | grep -E "$dur")
	# README's first screen gives one number, dated, with a link to the log
	[ "${f##*/}" = README.md ] && [ "$(grep -c . <<< "$bad")" = 1 ] &&
		grep -q '(20[0-9-]*;' <<< "$bad" && bad=
	check "$rel: quotes no make check duration (they live in docs/results.md)" say_bad <<< "$bad"
done
# every knob of every target (lab/lib/knobs.sh's table) is explained in the docs
undoc=$(for k in $("$TOP/lab/lib/knobs.sh" --list | awk '{ for (i = 2; i <= NF; i++) print $i }' | sort -u); do
	grep -qE -- "(\`|\[|[[:space:]])$k(\`|=)" "$TOP"/README.md "$TOP"/docs/*.md || echo "$k"
done)
check "every knob in lab/lib/knobs.sh is in the docs${undoc:+ (missing: $(echo $undoc))}" test -z "$undoc"
# each line's LINE_OPTIONS (what make deb checks in the package) are the
# options its mmscale.config turns on, less the tests (*_TEST) and SLUB_STATS
for l in $LINES; do
	frag=$TOP/configs/$l/mmscale.config
	[ -f "$frag" ] || frag=$TOP/configs/mmscale.config
	want=$(sed -n 's/^CONFIG_\([A-Z0-9_]*\)=.*/\1/p' "$frag" | grep -vE '_TEST$|^SLUB_STATS$' | sort | xargs)
	have=$(bash -c 'source "$1" && echo $LINE_OPTIONS' _ "$TOP/patches/$l/line.env" | tr ' ' '\n' | sort | xargs)
	check "patches/$l/line.env's LINE_OPTIONS are ${frag#"$TOP"/}'s options ($want)" test "$have" = "$want"
	# and its cgroup sections are ones lab/guest/tests.sh runs
	cg=$(bash -c 'source "$1" && echo $LINE_CGROUP_TESTS' _ "$TOP/patches/$l/line.env")
	bad=$(for c in $cg; do grep -qE "^	$c\)( SECTION_TIMEOUT|$)" "$TOP/lab/guest/tests.sh" || echo "$c"; done)
	check "patches/$l/line.env's LINE_CGROUP_TESTS ($cg) are sections of lab/guest/tests.sh" say_bad <<< "$bad"
done
done_testing
