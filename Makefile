# mmscale - front door.  "make run" is the main job, "make check" the test
# command (CI runs it through .ci/run).  Every stage is a script in lab/.
#
#   make run | check            whole loop (see README.md)
#   make deps | source | tree | export
#   make build CONFIGS="vm debug"   one kernel under build/<configs joined by ->
#   make test                   the lab's own tests only (prove tests/)
#   make bench [BENCH=page_fault3] [RUNS=5] [FULL=1] [CONFIG=rt] [HOST=1]
#                               A/B benchmark, LKP tables (lab/bench.sh)
#   make compare A=DIR [B=DIR]  tables again from saved build/results/ dirs
#   make bisect [FIRST=n LAST=m] [CONFIGS="vm"]   build + boot each patch alone
#   make topics                 each topic applies alone, forward == reverse,
#                               kernel-doc, placeholders (lab/topics.sh)
#   make mail [TOPIC=name] [V=n] [MAIL_FROM="Name <addr>"]
#                               linux-mm posting per topic in build/mail/
#                               (cover letter, To/Cc, mbox, send-email dry
#                               run); sends nothing
#   make docs                   htmldocs of the touched Documentation dirs,
#                               base vs head: no new warning (lab/docs.sh)

SHELL := /bin/bash
CONFIGS ?= vm debug
NAME := $(subst $() ,-,$(strip $(CONFIGS)))

.PHONY: all run check deps source tree export build test bench compare bisect topics mail docs help clean

all: help

help:
	@sed -n '1,23p' Makefile

run:
	lab/run.sh run

check:
	lab/run.sh check

deps:
	lab/deps.sh

source:
	lab/source.sh

tree: source
	lab/tree.sh

export:
	lab/export.sh

build:
	lab/build.sh $(CONFIGS)

test:
	prove -v tests/*.t

bench:
	lab/bench.sh

compare:
	$(if $(A),,$(error usage: make compare A=<results dir> [B=<results dir>]))
	lab/compare.py report $(A) $(B) --plots $(or $(B),$(A))

bisect: tree
	lab/bisect.sh $(FIRST) $(LAST)

topics: tree
	lab/topics.sh

mail: deps tree
	lab/mail.sh

docs: tree
	lab/docs.sh

clean:
	rm -rf build
