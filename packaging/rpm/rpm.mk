# make rpm: the RPM package for RHEL, Fedora and SLES (packaging/rpm/smtcpu.spec),
# in build-rpm/RPMS/ARCH/.
#
#   make rpm        x86_64, from this tree's build, installed into a staging
#                   tree (make install DESTDIR=build-rpm/stage-x86_64 PREFIX=/usr)
#   make rpm RPM_ARCH=ppc64le RPM_STAGE=DIR
#                   ppc64le, from DIR: a cross build's tree of the same layout
#                   (make cross-ppc64el leaves it in build-ppc64el/stage)
#   make srpm       the source package, for rpmbuild --rebuild on the target
#                   host (with its BuildRequires installed)
#
# The binary packages are made with rpmbuild -bb --nodeps from the staging
# tree: the spec's BuildRequires name RHEL's packages, which rpm here has no
# database of.  Nothing checks that the staged binaries are of RPM_ARCH:
# qa/036 reads their ELF headers.

RPM_ARCH ?= x86_64
RPM_STAGE ?=
RPM_TOP = $(CURDIR)/build-rpm
RPM_SPEC = packaging/rpm/smtcpu.spec
RPM_NAME = pcp-pmda-smtcpu
RPM_VERSION = $(shell sed -n 's/^Version: *//p' $(RPM_SPEC))
# rpmbuild strips debugging sections from the binaries, with the strip of
# their architecture (as the Debian package's are stripped).
RPM_HOST_ARCH := $(shell uname -m)
RPM_STRIP ?= $(if $(filter $(RPM_HOST_ARCH),$(RPM_ARCH)),strip,$(patsubst ppc%,powerpc%,$(RPM_ARCH))-linux-gnu-strip)
RPMBUILD = rpmbuild --define "_topdir $(RPM_TOP)"
# Where this tree's own build is staged, in the spec's layout (PCP's on
# RHEL, Fedora and SLES) whatever this host's pcp.conf says.
RPM_OWN_STAGE = $(RPM_TOP)/stage-$(RPM_ARCH)
RPM_PMDAS_DIR = /var/lib/pcp/pmdas
RPM_SYSCONF_DIR = /etc/pcp
RPM_BINADM_DIR = /usr/libexec/pcp/bin

.PHONY: rpm srpm clean-rpm

rpm:
	@[ "$(SANITIZE)" != 1 ] || { echo "make rpm: packages the plain build: run it without SANITIZE=1" >&2; exit 1; }
	@[ -n "$(RPM_STAGE)" ] || [ "$(RPM_ARCH)" = "$(RPM_HOST_ARCH)" ] || \
		{ echo "make rpm: this tree's build is $(RPM_HOST_ARCH): give a $(RPM_ARCH) staging tree as RPM_STAGE=DIR" >&2; exit 1; }
	@[ -z "$(RPM_STAGE)" ] || [ -x "$(RPM_STAGE)$(RPM_PMDAS_DIR)/smtcpu/pmdasmtcpu" ] || \
		{ echo "make rpm: $(RPM_STAGE) holds no $(RPM_PMDAS_DIR)/smtcpu/pmdasmtcpu" >&2; exit 1; }
	mkdir -p $(RPM_TOP)
ifeq ($(RPM_STAGE),)
	rm -rf $(RPM_OWN_STAGE)
	$(MAKE) install DESTDIR=$(RPM_OWN_STAGE) PREFIX=/usr \
		PCP_PMDAS_DIR=$(RPM_PMDAS_DIR) PCP_SYSCONF_DIR=$(RPM_SYSCONF_DIR) PCP_BINADM_DIR=$(RPM_BINADM_DIR) >$(RPM_TOP)/stage-$(RPM_ARCH).log 2>&1 || \
		{ tail -40 $(RPM_TOP)/stage-$(RPM_ARCH).log; exit 1; }
endif
	rm -f $(RPM_TOP)/RPMS/$(RPM_ARCH)/$(RPM_NAME)-*.rpm
	$(RPMBUILD) -bb --nodeps --target $(RPM_ARCH) --define "__strip $(RPM_STRIP)" \
		--define "_smtcpu_stage $(abspath $(or $(RPM_STAGE),$(RPM_OWN_STAGE)))" \
		$(RPM_SPEC) >$(RPM_TOP)/rpmbuild-$(RPM_ARCH).log 2>&1 || \
		{ tail -40 $(RPM_TOP)/rpmbuild-$(RPM_ARCH).log; exit 1; }
	ls $(RPM_TOP)/RPMS/$(RPM_ARCH)/$(RPM_NAME)-*.rpm

# The tarball holds the files git knows (tracked, or new and not ignored),
# as they are in the work tree, less build trees, under NAME-VERSION/ as
# %setup wants.
srpm:
	rm -rf $(RPM_TOP)/SOURCES $(RPM_TOP)/SRPMS && mkdir -p $(RPM_TOP)/SOURCES
	git ls-files -co --exclude-standard | grep -v '^build[-/]' | \
		while read -r f; do [ ! -f "$$f" ] || echo "$$f"; done | \
		tar -c -T - --transform 's@^@$(RPM_NAME)-$(RPM_VERSION)/@' | \
		gzip -n >$(RPM_TOP)/SOURCES/$(RPM_NAME)-$(RPM_VERSION).tar.gz
	$(RPMBUILD) -bs --nodeps $(RPM_SPEC) >$(RPM_TOP)/rpmbuild-src.log 2>&1 || \
		{ tail -40 $(RPM_TOP)/rpmbuild-src.log; exit 1; }
	ls $(RPM_TOP)/SRPMS/$(RPM_NAME)-*.src.rpm

clean: clean-rpm
clean-rpm:
	rm -rf $(RPM_TOP)
