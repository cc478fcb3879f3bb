# bench/lib.sh - the workloads and the matrices as data: reads the folders
# of bench/programs/ (one a workload: meta, run, C sources) and the job
# files of bench/jobs/ (one a matrix), and checks a benchmark item against
# its workload's fields.  docs/workloads.md describes both formats.
#
# Sourced by lab/lib/common.sh on the host (make bench and make jobs check
# every item with it before anything is built) and by bench/workloads.sh in
# the guest (which folder runs an item), so both read one grammar.
# What it needs: bash 4, grep; bench_item_error and the check files also
# need in_range (lab/lib/common.sh).  It writes nothing; what is wrong is
# one line, in PROGRAMS_ERROR or on stdout.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# item name -> its folder; folder -> its fields ("param|optional SPEC" a
# line).  (lab/py/jobs.py reads the nofleet lines itself.)
declare -gA PROGRAM_OF=() PROGRAM_FIELDS=()
# the folders, and the item names, in the order of the folders
PROGRAMS=() PROGRAM_NAMES=()
PROGRAMS_ERROR=

# field_spec_error SPEC: print why SPEC is not the spec of an item field
field_spec_error() {
	local kind name a b rest
	read -r kind name a b rest <<< "$1"
	case $kind in
	count)
		[[ $name =~ ^[A-Z][A-Z0-9_]*$ && $a =~ ^[0-9]+$ && $b =~ ^[0-9]+$ ]] && [ "$a" -le "$b" ] ||
			echo "want count NAME LO HI [WHAT], not '$1'" ;;
	choice)
		[[ $name =~ ^[a-z0-9_]+(\|[a-z0-9_]+)+$ && -n $a ]] || echo "want choice A|B... LABEL, not '$1'" ;;
	joined)
		[[ $name =~ ^[A-Z][A-Z0-9_]*$ && $a =~ ^[a-z0-9_]+(\|[a-z0-9_]+)*$ && -n $b ]] ||
			echo "want joined NAME A|B... LABEL, not '$1'" ;;
	check)
		[[ $name =~ ^[A-Z][A-Z0-9_]*$ && -n $a && -z $b ]] || { echo "want check NAME FUNCTION, not '$1'"; return; }
		declare -F "$a" > /dev/null || echo "check $name: no function $a (the folder's check file defines it)" ;;
	*)
		echo "the kind of a field is count, choice, joined or check, not '$kind'" ;;
	esac
}

# program_read W: read folder bench/programs/W into the tables; on a fault,
# PROGRAMS_ERROR says it in one line and it returns 1.
program_read() {
	local w=$1 rel=bench/programs/$1 dir=$BENCH_DIR/programs/$1 line key val n=0 why nm
	local names=$1 summary='' fields='' opt=0 fn=run_${1//-/_}
	[[ $w =~ ^[a-z][a-z0-9_-]*$ ]] ||
		{ PROGRAMS_ERROR="$rel: a workload folder's name is lower case letters, digits, - and _"; return 1; }
	[ -f "$dir/meta" ] || { PROGRAMS_ERROR="$rel: no meta file (docs/workloads.md)"; return 1; }
	[ -f "$dir/run" ] || { PROGRAMS_ERROR="$rel: no run script (docs/workloads.md)"; return 1; }
	grep -q "^$fn() {" "$dir/run" || { PROGRAMS_ERROR="$rel/run: no function $fn() {"; return 1; }
	# a check file defines the functions of its "check" fields
	if [ -f "$dir/check" ]; then
		# shellcheck source=/dev/null
		source "$dir/check" || { PROGRAMS_ERROR="$rel/check: it failed to load"; return 1; }
	fi
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		if ! [[ $line =~ ^([a-z]+)=(.+)$ ]]; then
			PROGRAMS_ERROR="$rel/meta line $n: not KEY=VALUE: '$line'"
			return 1
		fi
		key=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
		case $key in
		names) names=$val ;;
		summary) summary=$val ;;
		nofleet) ;;
		param | optional)
			why=$(field_spec_error "$val")
			[ "$key" = optional ] || [ $opt = 0 ] || why="a param after an optional field"
			[ -z "$why" ] || { PROGRAMS_ERROR="$rel/meta line $n: $why"; return 1; }
			[ "$key" = param ] || opt=1
			fields+="$key $val"$'\n' ;;
		*)
			PROGRAMS_ERROR="$rel/meta line $n: unknown key '$key' (keys: names, summary, param, optional, nofleet)"
			return 1 ;;
		esac
	done < "$dir/meta"
	[ -n "$summary" ] || { PROGRAMS_ERROR="$rel/meta: no summary= line"; return 1; }
	for nm in $names; do
		if ! [[ $nm =~ ^[a-z][a-z0-9_-]*$ ]]; then
			PROGRAMS_ERROR="$rel/meta: '$nm' is no workload name (lower case letters, digits, - and _)"
			return 1
		fi
		if [ -n "${PROGRAM_OF[$nm]:-}" ]; then
			PROGRAMS_ERROR="$rel/meta: the name $nm is bench/programs/${PROGRAM_OF[$nm]}'s already"
			return 1
		fi
		PROGRAM_OF[$nm]=$w
		PROGRAM_NAMES+=("$nm")
	done
	PROGRAMS+=("$w")
	PROGRAM_FIELDS[$w]=$fields
}

# programs_load: read every folder of bench/programs/ (once); 1 and
# PROGRAMS_ERROR when one is bad, so that nothing runs with a half list.
programs_load() {
	local d
	[ ${#PROGRAMS[@]} = 0 ] || return 0
	[ -z "$PROGRAMS_ERROR" ] || return 1
	for d in "$BENCH_DIR"/programs/*; do
		[ -d "$d" ] || continue
		program_read "$(basename "$d")" || { PROGRAMS=() PROGRAM_NAMES=() PROGRAM_OF=(); return 1; }
	done
	[ ${#PROGRAMS[@]} -gt 0 ] || { PROGRAMS_ERROR="bench/programs/ holds no workload"; return 1; }
}

# item_form NAME: how an item of workload NAME is written, e.g.
# iperf3-cgroup:K[:MIB[:mixed|pair|split]] (a choice shows its values)
item_form() {
	local key name form=$1 close=
	while read -r key _ name _; do
		[ -n "$key" ] || continue
		if [ "$key" = optional ]; then
			form+="[:$name" close+="]"
		else
			form+=":$name"
		fi
	done <<< "${PROGRAM_FIELDS[${PROGRAM_OF[$1]}]}"
	echo "$form$close"
}

# bench_items: every workload's item form, comma separated, by folder; a
# folder whose names differ only in their last character is written once
# (page_fault1|2|3:...).
bench_items() {
	local w nm names list=() form one
	for w in "${PROGRAMS[@]}"; do
		names=()
		for nm in "${PROGRAM_NAMES[@]}"; do
			[ "${PROGRAM_OF[$nm]}" != "$w" ] || names+=("$nm")
		done
		form=$(item_form "${names[0]}") one=${names[0]}
		for nm in "${names[@]:1}"; do
			[ "${nm%?}" = "${names[0]%?}" ] && one+="|${nm: -1}" || one=
		done
		if [ -n "$one" ]; then
			list+=("$one${form#"${names[0]}"}")
		else
			for nm in "${names[@]}"; do list+=("$(item_form "$nm")"); done
		fi
	done
	printf '%s, ' "${list[@]}" | sed 's/, $//'
}

# bench_list: every workload, for people: its item form, its summary and
# each field's bounds (what docs/benchmarks.md points at instead of a copy)
bench_list() {
	local w nm key kind name a b rest
	for w in "${PROGRAMS[@]}"; do
		for nm in "${PROGRAM_NAMES[@]}"; do
			[ "${PROGRAM_OF[$nm]}" != "$w" ] || echo "$(item_form "$nm")"
		done
		sed -n 's/^summary=/    /p' "$BENCH_DIR/programs/$w/meta"
		while read -r key kind name a b rest; do
			[ -n "$key" ] || continue
			case $kind in
			count) echo "    $name: $a to $b${rest:+ ($rest)}" ;;
			choice) echo "    ${a}${b:+ $b}${rest:+ $rest}: $(or_list "$name")" ;;
			joined) echo "    $name: ${b}${rest:+ $rest}, '+'-joined from $(or_list "$a")" ;;
			check) echo "    $name: checked by $a (bench/programs/$w/check)" ;;
			esac
		done <<< "${PROGRAM_FIELDS[$w]}"
	done
}

# or_list A|B|C: "A, B or C"
or_list() {
	local v=${1//|/, }
	case $v in
	*,*) echo "${v%, *} or ${v##*, }" ;;
	*) echo "$v" ;;
	esac
}

# field_error SPEC VALUE: print why VALUE does not fit the field SPEC
field_error() {
	local kind name a b rest t parts=()
	case $1 in
	count*)
		read -r kind name a b rest <<< "$1"
		in_range "$2" "$a" "$b" || echo "$name${rest:+ ($rest)} must be $a..$b, not '$2'" ;;
	choice*)
		read -r kind a rest <<< "$1"
		[[ $2 != *"|"* && "|$a|" == *"|$2|"* ]] || echo "$rest must be $(or_list "$a"), not '$2'" ;;
	joined*)
		read -r kind name a rest <<< "$1"
		IFS=+ read -r -a parts <<< "$2"
		for t in "${parts[@]}"; do
			[[ $t != *"|"* && "|$a|" == *"|$t|"* ]] ||
				{ echo "unknown $rest '$t' (${a//|/, }, joined with +)"; return; }
		done
		[ -n "$2" ] || echo "no $rest named" ;;
	check*)
		read -r kind name a <<< "$1"
		"$a" "$2" ;;
	esac
}

# bench_item_error ITEM: print why ITEM is not a benchmark item (nothing if
# it is one): a known workload, as many fields as its meta says, each
# within its bounds.
bench_item_error() {
	local f=() w key spec nreq=0 nmax=0 i=0 why specs=()
	programs_load || { echo "$PROGRAMS_ERROR"; return; }
	IFS=: read -r -a f <<< "$1:"
	[ -n "${f[0]:-}" ] && w=${PROGRAM_OF[${f[0]}]:-} || w=
	[ -n "$w" ] || { echo "unknown workload '${f[0]:-}' (want one of: $(bench_items))"; return; }
	while read -r key spec; do
		[ -n "$key" ] || continue
		specs+=("$spec")
		nmax=$((nmax + 1))
		[ "$key" = optional ] || nreq=$((nreq + 1))
	done <<< "${PROGRAM_FIELDS[$w]}"
	if [ $nmax = 0 ]; then
		[ ${#f[@]} = 1 ] || echo "${f[0]} takes no parameter"
		return
	fi
	[ $((${#f[@]} - 1)) -ge $nreq ] && [ $((${#f[@]} - 1)) -le $nmax ] ||
		{ echo "want $(item_form "${f[0]}")"; return; }
	for ((i = 1; i < ${#f[@]}; i++)); do
		why=$(field_error "${specs[i - 1]}" "${f[i]}")
		[ -z "$why" ] || { echo "$why"; return; }
	done
}

# job_items FILE [NAME=VALUE...]: the items of job file FILE, appended to
# the array JOB_ITEMS.  Each line is an item in which {a,b,...} lists
# expand in order, the first list outermost (as the shell's brace
# expansion), and {@NAME} stands for the words of VALUE as such a list; #
# starts a comment.  A line with any other character is refused: 1 and
# PROGRAMS_ERROR.
job_items() {
	local file=$1 line n=0 kv v
	shift
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		line=${line#"${line%%[![:space:]]*}"}
		line=${line%"${line##*[![:space:]]}"}
		[ -n "$line" ] || continue
		# the kernels of a matrix: job_sides reads those lines
		[[ $line =~ ^(side|pairs|aa)[[:space:]] ]] && continue
		for kv; do
			v=${kv#*=}
			v=${v// /,}
			line=${line//"{@${kv%%=*}}"/"{$v}"}
		done
		if ! [[ $line =~ ^[A-Za-z0-9_:+.,{}-]+$ ]] || [[ $line =~ \{[^}]*\{ ]]; then
			PROGRAMS_ERROR="bench/jobs/${file##*/} line $n: not an item with {a,b} lists: '$line'"
			return 1
		fi
		brace_expand "$line"
	done < "$file"
}

# job_sides FILE: the kernels a matrix boots, from FILE's lines
#   side NAME FOLDER base|head FRAGMENT... [@BOOT_ARGS]
#   pairs A:B...      (the sides compared, A first)
#   aa A:B            (two sides of one kernel: the A/A noise floor)
# into SIDE_NAMES (in order) and SIDE_FOLDER, SIDE_TREE, SIDE_FRAGS and
# SIDE_ARGS by name, JOB_PAIRS and JOB_AA.  FOLDER is the build folder
# under build/<line>/ (sides may share one: the same kernel booted with
# other arguments); base builds the line's pristine source, head the
# series.  A file without side lines gives none: make bench then compares
# base and head.  A bad line: 1 and PROGRAMS_ERROR.
job_sides() {
	local file=$1 line n=0 w=() name args p rel=bench/jobs/${1##*/}
	SIDE_NAMES=() JOB_PAIRS= JOB_AA=
	declare -gA SIDE_FOLDER=() SIDE_TREE=() SIDE_FRAGS=() SIDE_ARGS=()
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		read -r -a w <<< "$line"
		[ ${#w[@]} -gt 0 ] || continue
		case ${w[0]} in
		side)
			args=
			[[ ${w[-1]} == @* ]] && { args=${w[-1]#@}; unset 'w[-1]'; }
			name=${w[1]:-}
			if [ ${#w[@]} -lt 5 ] || ! [[ $name =~ ^[a-z][a-z0-9]*$ ]] ||
				! [[ ${w[2]} =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)?$ ]] ||
				! [[ ${w[3]} =~ ^(base|head)$ ]] || ! [[ $args =~ ^[A-Za-z0-9_.,=:-]*$ ]]; then
				PROGRAMS_ERROR="$rel line $n: want 'side NAME FOLDER base|head FRAGMENT... [@BOOT_ARGS]', not '$line'"
				return 1
			fi
			[ -z "${SIDE_TREE[$name]:-}" ] || { PROGRAMS_ERROR="$rel line $n: side $name twice"; return 1; }
			SIDE_NAMES+=("$name")
			SIDE_FOLDER[$name]=${w[2]} SIDE_TREE[$name]=${w[3]} SIDE_FRAGS[$name]=${w[*]:4} SIDE_ARGS[$name]=$args ;;
		pairs | aa)
			if [ ${#w[@]} -lt 2 ] || { [ "${w[0]}" = aa ] && [ ${#w[@]} != 2 ]; }; then
				PROGRAMS_ERROR="$rel line $n: want '$([ "${w[0]}" = aa ] && echo "aa A:B" || echo "pairs A:B...")', not '$line'"
				return 1
			fi
			for p in "${w[@]:1}"; do
				[[ $p =~ ^([a-z0-9]+):([a-z0-9]+)$ ]] && [ -n "${SIDE_TREE[${BASH_REMATCH[1]}]:-}" ] &&
					[ -n "${SIDE_TREE[${BASH_REMATCH[2]}]:-}" ] ||
					{ PROGRAMS_ERROR="$rel line $n: '$p' is not two sides named before it (A:B)"; return 1; }
			done
			if [ "${w[0]}" = pairs ]; then JOB_PAIRS=$(IFS=,; echo "${w[*]:1}"); else JOB_AA=${w[1]}; fi ;;
		esac
	done < "$file"
	[ -z "$JOB_PAIRS$JOB_AA" ] || [ ${#SIDE_NAMES[@]} -gt 0 ] ||
		{ PROGRAMS_ERROR="$rel: pairs or aa without side lines"; return 1; }
}

# brace_expand WORD: WORD with its first {a,b,...} list expanded, then the
# rest, appended to JOB_ITEMS (lists do not nest)
brace_expand() {
	local a alt=()
	if [[ $1 =~ ^([^{]*)\{([^{}]*)\}(.*)$ ]]; then
		IFS=, read -r -a alt <<< "${BASH_REMATCH[2]},"
		local pre=${BASH_REMATCH[1]} post=${BASH_REMATCH[3]}
		for a in "${alt[@]}"; do brace_expand "$pre$a$post"; done
	else
		JOB_ITEMS+=("$1")
	fi
}
