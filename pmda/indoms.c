/*
 * The instance domains: the cache pmdaInit is given, and each domain's help
 * text (help is made from it at build time, as from the metrics' rows).
 */
#include "shared.h"

pmdaIndom indomtab[NUM_INDOMS];

const struct indom_doc indom_docs[NUM_INDOMS] = {
	[CPU_INDOM] = { .loaded = false,
	  .oneline = "Online CPUs (hardware threads), named cpuN as by the linux PMDA",
	  .help = "Online CPUs.  Instances are named cpuN, the same names the linux PMDA\n"
	  "uses for kernel.percpu.cpu.*.  A CPU that goes offline leaves the\n"
	  "instance domain and comes back with the same instance number." },
	[CORE_INDOM] = { .loaded = true,
	  .oneline = "Cores: the online threads that share one core",
	  .help = "One instance per core, named coreN after its lowest-numbered online\n"
	  "thread (cpuN), as AIX names processors in mpstat -s.  The threads of a\n"
	  "core are those in its topology/thread_siblings_list." },
	[MODEL_INDOM] = { .loaded = true,
	  .oneline = "SMT factor tables, built in and from the configuration file",
	  .help = "One instance per factor table: the built-in ones (none, power7-smt4,\n"
	  "power7-smt2, power8-smt4, power8-smt8, x86-smt2) and any the\n"
	  "configuration file adds or replaces." },
	[SOURCE_INDOM] = { .loaded = true,
	  .oneline = "Data sources of the smtcpu PMDA",
	  .help = "One instance per source: cpustat (/proc/stat), config (the\n"
	  "configuration file), topology (the online CPU list), purr (POWER PURR\n"
	  "registers), lparcfg (/proc/powerpc/lparcfg of a POWER LPAR), amd_df (AMD\n"
	  "Data Fabric or UMC DRAM counters), amd_l3 (AMD L3 counters), amd_xgmi\n"
	  "(AMD xGMI link counters), sched (the software PURR), intel_smt (Intel's\n"
	  "SMT overlap counters) and core (the core counters)." },
	[SOCKET_INDOM] = { .loaded = true,
	  .oneline = "Sockets whose DRAM traffic is counted, named socketN",
	  .help = "One instance per CPU in the Data Fabric (or UMC) PMU's cpumask, named\n"
	  "after its physical package.  Empty where amd_df has no values: see\n"
	  "smtcpu.status." },
	[CHANNEL_INDOM] = { .loaded = true,
	  .oneline = "DRAM channels, named socketN/chK",
	  .help = "One instance per DRAM channel of each socket: 8 on Zen2 Rome and Zen3\n"
	  "Milan, 12 on Zen4 Genoa and Zen5 Turin, or dram_channels from the\n"
	  "configuration file." },
	[CCX_INDOM] = { .loaded = true,
	  .oneline = "L3 complexes (CCX), named ccxN",
	  .help = "One instance per CPU in the amd_l3 PMU's cpumask, in CPU order: each\n"
	  "counts the L3 cache that CPU shares.  The labels give that CPU and its\n"
	  "socket." },
	[LINK_INDOM] = { .loaded = true,
	  .oneline = "xGMI links between sockets, named socketN/linkK",
	  .help = "A socket's cross-socket links as the Data Fabric counts them (K = 0..7 on\n"
	  "Zen4), each socket's own, for amd.df.xgmi.link.*: what socketN sends over\n"
	  "its link K (and receives, on Zen5)." },
	[PROC_INDOM] = { .loaded = false,
	  .oneline = "Processes the software PURR has charged, named \"PID command\"",
	  .help = "As the proc PMDA names them: the PID in six digits, then the command\n"
	  "line's first word, or \"(name)\" for a kernel thread.  A process stays an\n"
	  "instance for the retire period after it exits (\"retire\" in smtcpu.conf, a\n"
	  "minute unless set), its last values served; then it is inactive, its name\n"
	  "still resolved by identifier (and listed with the domain, for clients that\n"
	  "list it after a fetch), as long again.\n"
	  "A process under a PID whose earlier holder is still served or named is\n"
	  "named PID:N at once (N its own number, never another's), as PCP wants\n"
	  "the first word unique." },
	[CGROUP_INDOM] = { .loaded = false,
	  .oneline = "cgroups (v2) the software PURR has charged, named by path",
	  .help = "Paths below the cgroup2 mount, \"/\" for the root.  One removed before\n"
	  "smtcpu first read it is named by its parent's path and the directory\n"
	  "name the program kept when it first charged it; failing both,\n"
	  "\"(cgroup-ID)\", ID its cgroup id.  Removed cgroups are found within\n"
	  "10 s, stay an instance for the retire period (a minute unless set), their\n"
	  "last values served, then are inactive as long again, as processes are; but one whose path a new\n"
	  "cgroup takes (a service restarted) goes at once, so that each name is\n"
	  "unique up to its first space, as PCP requires: the new one is an\n"
	  "instance from the next pass, with an identifier of its own." },
	[MAP_INDOM] = { .loaded = false,
	  .oneline = "The software PURR's charge maps: tasks and cgroups",
	  .help = "The BPF program's hash maps of what it charged each process (\"tasks\",\n"
	  "by PID) and each cgroup (\"cgroups\", by id).  Plain hashes, not LRU: a\n"
	  "full map refuses a newcomer, counted in smtcpu.sched.map.refused, and\n"
	  "never evicts what it holds.  smtcpu removes an exited process from\n"
	  "\"tasks\" 2 s after it ended (it is still served a retire period) and a\n"
	  "removed cgroup from \"cgroups\" a retire period after.  No uid may hold\n"
	  "more than half of \"tasks\" (smtcpu.sched.uid.*), so that one user's\n"
	  "fork storm cannot keep other users' processes out." },
	[UID_INDOM] = { .loaded = false,
	  .oneline = "uids holding processes in the software PURR's tasks map",
	  .help = "Each uid (the real uid of a process's leader, as the program first\n"
	  "charged it) holding entries of the \"tasks\" map, or refused some, named\n"
	  "by its number; \"unknown\" for entries made with no task at hand." },
};

pmInDom indom(int serial)
{
	return indomtab[serial].it_indom;
}
