#!/usr/bin/env python3
# scripts/gen_async_suite.py — writes suites/async/*.litmus and its manifest.yaml: each test's
# threads, condition, expected verdict under --model ptx and the argument from the ISA text.
# Edit the tests here and run: python3 scripts/gen_async_suite.py
import os
D=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'suites', 'async')
tests=[]
def T(name, doc, init, threads, cond, expect, source):
    tests.append((name, doc, init, threads, cond, expect, source))

from litmus_table import render   # scripts/litmus_table.py

C0='P0@cta 0,cluster 0,gpu 0'; C1='P1@cta 1,cluster 0,gpu 0'
S0='P0@cta 0,cluster 0,gpu 0'; S1='P1@cta 0,cluster 0,gpu 0'

# ---------------- mbarrier ----------------
MBINIT=['mbarrier.init.shared.b64 [bar], 2','bar.sync 0']
T('MP+mbar.arrive.release+test_wait.acquire',
 '''mbarrier MP, the pattern of §9.7.13.15.16 Example 1a with two threads of one CTA.
 P0 writes x, then arrives (.release .cta by default: "If the .sem qualifier is absent, .release
 is assumed by default"; "defaults to .cta"); P1 arrives and tests the phase of its state
 (.acquire by default).  Quoted (§9.7.13.15.16): "When mbarrier.test_wait and mbarrier.try_wait
 operations with .acquire qualifier returns True, they form the acquire pattern"; item 1: "All
 memory accesses ... requested prior, in program order, to mbarrier.arrive having release
 semantics during the completed phase by the participating threads of the CTA are performed and
 are visible to the executing thread."  The phase of count 2 completes only with both arrivals,
 so p=1 means P0's arrive is in the phase: r2 must be 1.  Forbidden.''',
 'x=0;', [(S0, MBINIT+['st.global.u32 [x], 1','mbarrier.arrive.shared.b64 %r0, [bar]']),
          (S1, ['bar.sync 0','mbarrier.arrive.shared.b64 %r1, [bar]','mbarrier.test_wait.shared.b64 %p, [bar], %r1','ld.global.u32 %r2, [x]'])],
 'exists (1:p=1 /\\ 1:r2=0)', 'No', 'ISA §9.7.13.15.16 Example 1a, item 1')
T('MP+mbar.arrive.relaxed+test_wait.acquire',
 '''As MP+mbar.arrive.release+test_wait.acquire with P0's arrive .relaxed: "The .relaxed qualifier
 does not provide any memory ordering semantics and visibility guarantees" (§9.7.13.15.13).  No
 release pattern precedes the wait, so the stale read of x is allowed.''',
 'x=0;', [(S0, MBINIT+['st.global.u32 [x], 1','mbarrier.arrive.relaxed.cta.shared.b64 %r0, [bar]']),
          (S1, ['bar.sync 0','mbarrier.arrive.shared.b64 %r1, [bar]','mbarrier.test_wait.shared.b64 %p, [bar], %r1','ld.global.u32 %r2, [x]'])],
 'exists (1:p=1 /\\ 1:r2=0)', 'Ok', 'ISA §9.7.13.15.13 .relaxed')
T('MP+mbar.arrive.release+test_wait.relaxed',
 '''As MP+mbar.arrive.release+test_wait.acquire with P1's wait .relaxed: only a wait "with .acquire
 qualifier" forms the acquire pattern (§9.7.13.15.16).  Allowed.''',
 'x=0;', [(S0, MBINIT+['st.global.u32 [x], 1','mbarrier.arrive.shared.b64 %r0, [bar]']),
          (S1, ['bar.sync 0','mbarrier.arrive.shared.b64 %r1, [bar]','mbarrier.test_wait.relaxed.cta.shared.b64 %p, [bar], %r1','ld.global.u32 %r2, [x]'])],
 'exists (1:p=1 /\\ 1:r2=0)', 'Ok', 'ISA §9.7.13.15.16 .relaxed')
T('MP+mbar.arrive.release+try_wait.relaxed+fence.acquire',
 '''The relaxed wait followed by fence.acquire.cta, the idiom of the §9.7.13.4 example ("Acquire
 local shared memory via generic proxy": try_wait.relaxed then an acquire fence).  The relaxed
 wait is a strong read of the mbarrier and is followed by an acquire fence: an acquire pattern
 (§8.8 form 3, with fence.acquire, §9.7.13.4: "fence.acq_rel ... combined with additional memory
 operations as described in acquire and release patterns"; .acquire is its acquire half).
 It observes P0's release arrive through P1's arrive (an atomic operation, §8.9.2 item 2).
 Forbidden.''',
 'x=0;', [(S0, MBINIT+['st.global.u32 [x], 1','mbarrier.arrive.shared.b64 %r0, [bar]']),
          (S1, ['bar.sync 0','mbarrier.arrive.shared.b64 %r1, [bar]','mbarrier.try_wait.relaxed.cta.shared.b64 %p, [bar], %r1','fence.acquire.cta','ld.global.u32 %r2, [x]'])],
 'exists (1:p=1 /\\ 1:r2=0)', 'No', 'ISA §9.7.13.4 example; §8.8')
T('MP+mbar.parity',
 '''Parity wait: P0 initialises a count-1 barrier, writes x and arrives; P1 waits with
 try_wait.parity for phase 0 ("An even phase has integer parity 0").  True means phase 0 completed,
 i.e. P0's release arrive happened: x must be 1.  Forbidden.''',
 'x=0;', [(S0, ['mbarrier.init.shared.b64 [bar], 1','bar.sync 0','st.global.u32 [x], 1','mbarrier.arrive.shared.b64 %r0, [bar]']),
          (S1, ['bar.sync 0','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','ld.global.u32 %r2, [x]'])],
 'exists (1:p=1 /\\ 1:r2=0)', 'No', 'ISA §9.7.13.15.16 .parity')
T('mbar.count2-one-arrival',
 '''Phase completion needs the expected count: "The count of the pending arrivals has reached
 zero" (§9.7.13.15.6).  Count 2 and only P0 arrives: P1's wait never returns True.''',
 'x=0;', [(S0, MBINIT+['mbarrier.arrive.shared.b64 %r0, [bar]']),
          (S1, ['bar.sync 0','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0'])],
 'exists (1:p=1)', 'No', 'ISA §9.7.13.15.6')
T('mbar.arrive_drop',
 '''arrive_drop "Decrements the expected arrival count ... and performs arrive-on": with count 2,
 P0 arrives and P1 drops out; the phase completes and the next phase expects one arrival, so
 P0's second arrive alone completes phase 1 too (P0 waits for parity 1 after it).''',
 'x=0;', [(S0, MBINIT+['mbarrier.arrive.shared.b64 %r0, [bar]','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','mbarrier.arrive.shared.b64 %r1, [bar]','mbarrier.try_wait.parity.shared.b64 %q, [bar], 1']),
          (S1, ['bar.sync 0','mbarrier.arrive_drop.shared.b64 _, [bar]'])],
 'exists (0:p=1 /\\ 0:q=1)', 'Ok', 'ISA §9.7.13.15.14')
T('MP+mbar.wait-false',
 '''A wait that returns False orders nothing (only a True result forms the acquire pattern,
 §9.7.13.15.16): p=0 with the stale x is allowed.''',
 'x=0;', [(S0, MBINIT+['st.global.u32 [x], 1','mbarrier.arrive.shared.b64 %r0, [bar]']),
          (S1, ['bar.sync 0','mbarrier.arrive.shared.b64 %r1, [bar]','mbarrier.test_wait.shared.b64 %p, [bar], %r1','ld.global.u32 %r2, [x]'])],
 'exists (1:p=0 /\\ 1:r2=0)', 'Ok', 'ISA §9.7.13.15.16')
T('MP+mbar.store-after-arrive',
 '''Item 5 of §9.7.13.15.16: "There is no ordering and visibility guarantee for memory accesses
 requested by the thread after mbarrier.arrive having release semantics and prior to
 mbarrier.test_wait".  P0 writes x after its arrive: P1 may see the phase complete and the old x.''',
 'x=0;', [(S0, MBINIT+['mbarrier.arrive.shared.b64 %r0, [bar]','st.global.u32 [x], 1']),
          (S1, ['bar.sync 0','mbarrier.arrive.shared.b64 %r1, [bar]','mbarrier.test_wait.shared.b64 %p, [bar], %r1','ld.global.u32 %r2, [x]'])],
 'exists (1:p=1 /\\ 1:r2=0)', 'Ok', 'ISA §9.7.13.15.16 item 5')
T('SB+mbar',
 '''Store buffering through one phase: each thread writes its location, arrives, waits for the
 phase and reads the other location.  Both phases' release arrives precede both acquire waits
 (item 1 for each), so at least one thread sees the other's write.  Forbidden.''',
 'x=0; y=0;', [(S0, MBINIT+['st.global.u32 [x], 1','mbarrier.arrive.shared.b64 %r0, [bar]','mbarrier.test_wait.shared.b64 %p, [bar], %r0','ld.global.u32 %r2, [y]']),
          (S1, ['bar.sync 0','st.global.u32 [y], 1','mbarrier.arrive.shared.b64 %r1, [bar]','mbarrier.test_wait.shared.b64 %p, [bar], %r1','ld.global.u32 %r3, [x]'])],
 'exists (0:p=1 /\\ 1:p=1 /\\ 0:r2=0 /\\ 1:r3=0)', 'No', 'ISA §9.7.13.15.16 item 1')
T('LB+mbar',
 '''Load buffering: P0 reads x then arrives (release); P1 waits (acquire) then writes x.  Item 4
 of §9.7.13.15.16: "All memory accesses requested after the mbarrier.test_wait ... are not
 performed and not visible to memory accesses performed prior to mbarrier.arrive having release
 semantics ... by other threads".  P0 cannot read P1's write.''',
 'x=0;', [(S0, MBINIT+['ld.global.u32 %r2, [x]','mbarrier.arrive.shared.b64 %r0, [bar]']),
          (S1, ['bar.sync 0','mbarrier.arrive.shared.b64 %r1, [bar]','mbarrier.test_wait.shared.b64 %p, [bar], %r1','st.global.u32 [x], 1'])],
 'exists (1:p=1 /\\ 0:r2=1)', 'No', 'ISA §9.7.13.15.16 item 4')
T('IRIW+mbar',
 '''IRIW over one phase of count 2: P0 and P1 write x and y and arrive; P2 and P3 wait for the
 phase (parity 0) and read both locations in opposite orders.  Once the phase has completed both
 writes are visible to each waiter (item 1), so neither can read an old value.''',
 'x=0; y=0;', [('P0@cta 0,cluster 0,gpu 0', ['mbarrier.init.shared.b64 [bar], 2','bar.sync 0','st.global.u32 [x], 1','mbarrier.arrive.shared.b64 %r0, [bar]']),
          ('P1@cta 0,cluster 0,gpu 0', ['bar.sync 0','st.global.u32 [y], 1','mbarrier.arrive.shared.b64 %r0, [bar]']),
          ('P2@cta 0,cluster 0,gpu 0', ['bar.sync 0','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','ld.global.u32 %r1, [x]','ld.global.u32 %r2, [y]']),
          ('P3@cta 0,cluster 0,gpu 0', ['bar.sync 0','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','ld.global.u32 %r1, [y]','ld.global.u32 %r2, [x]'])],
 'exists (2:p=1 /\\ 3:p=1 /\\ (2:r1=0 \\/ 2:r2=0 \\/ 3:r1=0 \\/ 3:r2=0))', 'No', 'ISA §9.7.13.15.16 item 1')
T('MP+mbar.remote-arrive.cluster',
 '''One-way synchronization across CTAs of a cluster (§9.7.13.15: "threads can perform only
 arrive operations but not *_wait on an mbarrier located in shared::cluster space").  P1 owns
 the barrier: it initialises it and publishes the init with fence.mbarrier_init.release.cluster
 and a relaxed cluster barrier (the §9.7.13.4 example "Release local barrier state");  P0 in
 the other CTA writes x and arrives remotely with .release.cluster; P1 waits with
 .acquire.cluster (a .cta wait would not include P0's thread, §8.7).  Forbidden.''',
 'x=0;', [(C0, ['barrier.cluster.arrive.aligned','barrier.cluster.wait.aligned','st.global.u32 [x], 1','mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar]']),
          (C1, ['mbarrier.init.shared::cta.b64 [bar], 1','fence.mbarrier_init.release.cluster','barrier.cluster.arrive.relaxed.aligned','barrier.cluster.wait.aligned','mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p, [bar], 0','ld.global.u32 %r2, [x]'])],
 'exists (1:p=1 /\\ 1:r2=0)', 'No', 'ISA §9.7.13.15.8, §9.7.13.4 example')
T('MP+mbar.remote-arrive.wait-cta',
 '''As MP+mbar.remote-arrive.cluster with P1's wait at the default .cta scope: the scope of the
 wait does not include P0's thread in the other CTA, so the arrive and the wait are not morally
 strong (§8.7 condition 1) and do not synchronize.  Allowed.''',
 'x=0;', [(C0, ['barrier.cluster.arrive.aligned','barrier.cluster.wait.aligned','st.global.u32 [x], 1','mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar]']),
          (C1, ['mbarrier.init.shared::cta.b64 [bar], 1','fence.mbarrier_init.release.cluster','barrier.cluster.arrive.relaxed.aligned','barrier.cluster.wait.aligned','mbarrier.try_wait.parity.shared::cta.b64 %p, [bar], 0','ld.global.u32 %r2, [x]'])],
 'exists (1:p=1 /\\ 1:r2=0)', 'Ok', 'ISA §8.7, §9.7.13.15.16 .scope')
T('mbarrier_init-fence-covers-only-init',
 '''fence.mbarrier_init: "the synchronizing effect of the fence only applies to the prior
 mbarrier.init operations executed by the same thread" (§9.7.13.4).  P0's store to x before the
 fence is not released by it, so P1 may read the old x after seeing the flag.''',
 'x=0; flag=0;', [(C0, ['st.global.u32 [x], 1','mbarrier.init.shared::cta.b64 [bar], 1','fence.mbarrier_init.release.cluster','st.relaxed.cluster.global.u32 [flag], 1']),
          (C1, ['ld.relaxed.cluster.global.u32 %r0, [flag]','fence.acquire.cluster','ld.global.u32 %r1, [x]'])],
 'exists (1:r0=1 /\\ 1:r1=0)', 'Ok', 'ISA §9.7.13.4 .op_restrict')

# ---------------- barrier.cluster ----------------
T('MP+barrier.cluster',
 '''barrier.cluster with the default semantics (arrive .release, wait .acquire, §9.7.13.3): "The
 barrier.cluster.wait instruction guarantees that when it completes the execution, memory
 accesses (except asynchronous operations) requested, in program order, prior to the preceding
 barrier.cluster.arrive by all threads in the cluster are complete and visible to the executing
 thread."  P0 and P1 in different CTAs of one cluster.  Forbidden.''',
 'x=0;', [(C0, ['st.global.u32 [x], 1','barrier.cluster.arrive.aligned','barrier.cluster.wait.aligned']),
          (C1, ['barrier.cluster.arrive.aligned','barrier.cluster.wait.aligned','ld.global.u32 %r0, [x]'])],
 'exists (1:r0=0)', 'No', 'ISA §9.7.13.3')
T('MP+barrier.cluster.arrive.relaxed',
 '''"The optional .relaxed qualifier on barrier.cluster.arrive specifies that there are no memory
 ordering and visibility guarantees provided for the memory accesses performed prior to
 barrier.cluster.arrive" (§9.7.13.3).  Allowed.''',
 'x=0;', [(C0, ['st.global.u32 [x], 1','barrier.cluster.arrive.relaxed.aligned','barrier.cluster.wait.aligned']),
          (C1, ['barrier.cluster.arrive.aligned','barrier.cluster.wait.aligned','ld.global.u32 %r0, [x]'])],
 'exists (1:r0=0)', 'Ok', 'ISA §9.7.13.3 .relaxed')
T('MP+fence.acq_rel.cluster+barrier.cluster.arrive.relaxed',
 '''The ISA's own example (§9.7.13.3 "use memory fence prior to arrive for relaxed barrier"):
 fence.cluster.acq_rel before a relaxed arrive.  The release fence before the arrive
 synchronizes with the acquire waits of the barrier instance.  Forbidden.''',
 'x=0;', [(C0, ['st.global.u32 [x], 1','fence.acq_rel.cluster','barrier.cluster.arrive.relaxed.aligned','barrier.cluster.wait.aligned']),
          (C1, ['barrier.cluster.arrive.aligned','barrier.cluster.wait.aligned','ld.global.u32 %r0, [x]'])],
 'exists (1:r0=0)', 'No', 'ISA §9.7.13.3 example')
T('MP+barrier.cluster.store-between',
 '''"There is no memory ordering and visibility guarantee for memory accesses requested by the
 executing thread, in program order, after barrier.cluster.arrive and prior to
 barrier.cluster.wait" (§9.7.13.3).  P0 writes x between its arrive and its wait.  Allowed.''',
 'x=0;', [(C0, ['barrier.cluster.arrive.aligned','st.global.u32 [x], 1','barrier.cluster.wait.aligned']),
          (C1, ['barrier.cluster.arrive.aligned','barrier.cluster.wait.aligned','ld.global.u32 %r0, [x]'])],
 'exists (1:r0=0)', 'Ok', 'ISA §9.7.13.3')
T('SB+barrier.cluster',
 '''Store buffering across the cluster barrier: each thread's write precedes its arrive, each
 read follows its wait.  Both writes are visible to both readers.  Forbidden.''',
 'x=0; y=0;', [(C0, ['st.global.u32 [x], 1','barrier.cluster.arrive','barrier.cluster.wait','ld.global.u32 %r0, [y]']),
          (C1, ['st.global.u32 [y], 1','barrier.cluster.arrive','barrier.cluster.wait','ld.global.u32 %r1, [x]'])],
 'exists (0:r0=0 /\\ 1:r1=0)', 'No', 'ISA §9.7.13.3')
T('LB+barrier.cluster',
 '''Load buffering across the cluster barrier: reads before the arrive cannot see writes after
 the other thread's wait (the arrive releases the read, the wait acquires).  Forbidden.''',
 'x=0; y=0;', [(C0, ['ld.global.u32 %r0, [x]','barrier.cluster.arrive','barrier.cluster.wait','st.global.u32 [y], 1']),
          (C1, ['ld.global.u32 %r1, [y]','barrier.cluster.arrive','barrier.cluster.wait','st.global.u32 [x], 1'])],
 'exists (0:r0=1 /\\ 1:r1=1)', 'No', 'ISA §9.7.13.3')
T('IRIW+barrier.cluster',
 '''IRIW with two writers and two readers in one cluster (four CTAs); every thread arrives and
 waits once.  After the wait both writes are visible to both readers.  Forbidden.''',
 'x=0; y=0;', [('P0@cta 0,cluster 0,gpu 0', ['st.global.u32 [x], 1','barrier.cluster.arrive','barrier.cluster.wait']),
          ('P1@cta 1,cluster 0,gpu 0', ['st.global.u32 [y], 1','barrier.cluster.arrive','barrier.cluster.wait']),
          ('P2@cta 2,cluster 0,gpu 0', ['barrier.cluster.arrive','barrier.cluster.wait','ld.global.u32 %r0, [x]','ld.global.u32 %r1, [y]']),
          ('P3@cta 3,cluster 0,gpu 0', ['barrier.cluster.arrive','barrier.cluster.wait','ld.global.u32 %r0, [y]','ld.global.u32 %r1, [x]'])],
 'exists (2:r0=1 /\\ 2:r1=0 /\\ 3:r0=1 /\\ 3:r1=0)', 'No', 'ISA §9.7.13.3')
T('MP+barrier.cluster.other-cluster',
 '''The cluster barrier synchronizes "the threads within the cluster": a thread of another
 cluster has its own barrier.  Allowed.''',
 'x=0;', [(C0, ['st.global.u32 [x], 1','barrier.cluster.arrive','barrier.cluster.wait']),
          ('P1@cta 1,cluster 1,gpu 0', ['barrier.cluster.arrive','barrier.cluster.wait','ld.global.u32 %r0, [x]'])],
 'exists (1:r0=0)', 'Ok', 'ISA §9.7.13.3')

# ---------------- fences ----------------
T('MP+fence.release+fence.acquire',
 '''fence.release and fence.acquire (PTX 8.6, §9.7.13.4) as the two halves of the §8.10.6 MP
 example's fences: the release fence with the strong write is a release pattern, the strong
 read with the acquire fence an acquire pattern.  Forbidden.''',
 'x=0; flag=0;', [('P0@cta 0,gpu 0', ['st.global.u32 [x], 1','fence.release.gpu','st.relaxed.gpu.global.u32 [flag], 1']),
          ('P1@cta 1,gpu 0', ['ld.relaxed.gpu.global.u32 %r0, [flag]','fence.acquire.gpu','ld.global.u32 %r1, [x]'])],
 'exists (1:r0=1 /\\ 1:r1=0)', 'No', 'ISA §9.7.13.4, §8.8')
T('MP+fence.acquire+fence.release',
 '''The halves swapped: an acquire fence cannot begin a release pattern, a release fence cannot
 end an acquire pattern.  Allowed.''',
 'x=0; flag=0;', [('P0@cta 0,gpu 0', ['st.global.u32 [x], 1','fence.acquire.gpu','st.relaxed.gpu.global.u32 [flag], 1']),
          ('P1@cta 1,gpu 0', ['ld.relaxed.gpu.global.u32 %r0, [flag]','fence.release.gpu','ld.global.u32 %r1, [x]'])],
 'exists (1:r0=1 /\\ 1:r1=0)', 'Ok', 'ISA §9.7.13.4, §8.8')
T('SB+fence.release+fence.acquire',
 '''Store buffering with a release and an acquire fence in each thread: only fence.sc restores
 sequential consistency ("fence.sc ... can restore sequential consistency", §9.7.13.4).
 Allowed.''',
 'x=0; y=0;', [('P0@cta 0,gpu 0', ['st.relaxed.gpu.global.u32 [x], 1','fence.release.gpu','fence.acquire.gpu','ld.relaxed.gpu.global.u32 %r0, [y]']),
          ('P1@cta 1,gpu 0', ['st.relaxed.gpu.global.u32 [y], 1','fence.release.gpu','fence.acquire.gpu','ld.relaxed.gpu.global.u32 %r1, [x]'])],
 'exists (0:r0=0 /\\ 1:r1=0)', 'Ok', 'ISA §9.7.13.4')
T('MP+fence.release.sync_restrict.shared::cta',
 '''"When .sync_restrict is .sync_restrict::shared::cta, .sem must be .release, and the effect of
 the fence only applies to operations performed on objects in .shared::cta state space"
 (§9.7.13.4).  P0 writes its own CTA's shared memory, which the fence covers; P1 in the other CTA
 of the cluster reads it through .shared::cluster after an acquire fence.  Forbidden.''',
 'x=0; flag=0;', [(C0, ['st.shared::cta.u32 [x], 1','fence.release.sync_restrict::shared::cta.cluster','st.relaxed.cluster.global.u32 [flag], 1']),
          (C1, ['ld.relaxed.cluster.global.u32 %r0, [flag]','fence.acquire.cluster','ld.shared::cluster.u32 %r1, [x]'])],
 'exists (1:r0=1 /\\ 1:r1=0)', 'No', 'ISA §9.7.13.4 .sync_restrict')
T('MP+fence.release.sync_restrict.shared::cta-global',
 '''As MP+fence.release.sync_restrict.shared::cta with the data in global memory, which the
 restricted fence does not cover.  Allowed.''',
 'x=0; flag=0;', [(C0, ['st.global.u32 [x], 1','fence.release.sync_restrict::shared::cta.cluster','st.relaxed.cluster.global.u32 [flag], 1']),
          (C1, ['ld.relaxed.cluster.global.u32 %r0, [flag]','fence.acquire.cluster','ld.global.u32 %r1, [x]'])],
 'exists (1:r0=1 /\\ 1:r1=0)', 'Ok', 'ISA §9.7.13.4 .sync_restrict')
T('MP+fence.acquire.sync_restrict.shared::cluster-global',
 '''".sync_restrict::shared::cluster, .sem must be .acquire, and the effect of the fence only
 applies to operations performed on objects in .shared::cluster state space": the later read of
 global memory is not ordered by it.  Allowed.''',
 'x=0; flag=0;', [(C0, ['st.global.u32 [x], 1','fence.release.cluster','st.relaxed.cluster.global.u32 [flag], 1']),
          (C1, ['ld.relaxed.cluster.global.u32 %r0, [flag]','fence.acquire.sync_restrict::shared::cluster.cluster','ld.global.u32 %r1, [x]'])],
 'exists (1:r0=1 /\\ 1:r1=0)', 'Ok', 'ISA §9.7.13.4 .sync_restrict')
T('MP+mmio',
 '''ld.mmio / st.mmio: ".mmio ... strong .relaxed" at .sys scope (§8.4.1, §9.7.8.8: .mmio and
 .relaxed "must be specified together" with .sys), so with fence.sys on both sides they form the
 §8.10.6 MP pattern.  Forbidden.''',
 'x=0; flag=0;', [('P0@cta 0,gpu 0', ['st.global.u32 [x], 1','fence.sys','st.mmio.relaxed.sys.global.u32 [flag], 1']),
          ('P1@cta 1,gpu 0', ['ld.mmio.relaxed.sys.global.u32 %r0, [flag]','fence.sys','ld.global.u32 %r1, [x]'])],
 'exists (1:r0=1 /\\ 1:r1=0)', 'No', 'ISA §8.4.1, §9.7.8.8')

# ---------------- cp.async ----------------
T('cp.async+wait_all',
 '''cp.async is "ordered after prior instructions in the same thread" (§8.9.1.1), so it copies
 the 1 P0 stored; "The executing thread can then use cp.async.wait_all or cp.async.wait_group or
 mbarrier instructions to wait for completion": after wait_all the copy's write is visible.''',
 'x=0; s=0;', [(S0, ['st.global.u32 [x], 1','cp.async.ca.shared.global [s], [x], 4','cp.async.wait_all','ld.shared.u32 %r0, [s]'])],
 'exists (0:r0=0)', 'No', 'ISA §8.9.1.1, §9.7.8.24.3')
T('cp.async-no-wait',
 '''Without a completion, the copy is "not part of the program order" (§8.9.1.1): the later read
 of the destination may run before it.  Allowed.''',
 'x=0; s=0;', [(S0, ['st.global.u32 [x], 1','cp.async.ca.shared.global [s], [x], 4','ld.shared.u32 %r0, [s]'])],
 'exists (0:r0=0)', 'Ok', 'ISA §8.9.1.1, §9.7.8.24.3')
T('cp.async+wait_group1-first',
 '''Two async-groups; cp.async.wait_group 1 waits "until N or fewer of the most recent
 async-groups are pending and all the prior async-groups committed by the executing thread are
 complete" (§9.7.8.24.5): the first group is complete.  Forbidden.''',
 'x=1; y=1; s=0; t=0;', [(S0, ['cp.async.ca.shared.global [s], [x], 4','cp.async.commit_group','cp.async.ca.shared.global [t], [y], 4','cp.async.commit_group','cp.async.wait_group 1','ld.shared.u32 %r0, [s]'])],
 'exists (0:r0=0)', 'No', 'ISA §9.7.8.24.5')
T('cp.async+wait_group1-second',
 '''As cp.async+wait_group1-first reading the second group's destination, which may still be
 pending.  Allowed.''',
 'x=1; y=1; s=0; t=0;', [(S0, ['cp.async.ca.shared.global [s], [x], 4','cp.async.commit_group','cp.async.ca.shared.global [t], [y], 4','cp.async.commit_group','cp.async.wait_group 1','ld.shared.u32 %r0, [t]'])],
 'exists (0:r0=0)', 'Ok', 'ISA §9.7.8.24.5')
T('MP+cp.async+mbarrier.arrive.noinc',
 '''cp.async.mbarrier.arrive: "Causes an arrive-on operation to be triggered by the system on the
 mbarrier object upon the completion of all prior cp.async operations initiated by the executing
 thread"; item 2 of §9.7.13.15.16: "All cp.async operations requested prior, in program order,
 to cp.async.mbarrier.arrive during the completed phase by the participating threads of the CTA
 are performed and made visible to the executing thread."  With .noinc and count 1 the
 asynchronous arrive completes the phase; P1 waits for it.  Forbidden.''',
 'x=1; s=0;', [(S0, ['mbarrier.init.shared.b64 [bar], 1','bar.sync 0','cp.async.ca.shared.global [s], [x], 4','cp.async.mbarrier.arrive.noinc.shared.b64 [bar]']),
          (S1, ['bar.sync 0','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','ld.shared.u32 %r0, [s]'])],
 'exists (1:p=1 /\\ 1:r0=0)', 'No', 'ISA §9.7.13.15.15, §9.7.13.15.16 item 2')
T('cp.async+mbarrier.arrive.inc',
 '''Without .noinc "the pending count of the mbarrier object is incremented by 1 prior to the
 asynchronous arrive-on operation": with count 1 P0's own arrive does not complete the phase
 before the copy has; P0 waits on its own barrier and reads the destination.  Forbidden.''',
 'x=1; s=0;', [(S0, ['mbarrier.init.shared.b64 [bar], 1','cp.async.ca.shared.global [s], [x], 4','cp.async.mbarrier.arrive.shared.b64 [bar]','mbarrier.arrive.shared.b64 %r1, [bar]','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','ld.shared.u32 %r0, [s]'])],
 'exists (0:p=1 /\\ 0:r0=0)', 'No', 'ISA §9.7.13.15.15')

# ---------------- cp.async.bulk, the async proxy ----------------
BULK='cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [x], 4, [bar]'
T('MP+cp.async.bulk+mbarrier',
 '''A bulk copy into shared memory completing on an mbarrier that expects 4 bytes of
 transactions: "the complete-tx operation on the mbarrier has .release semantics at the .cluster
 scope" (§9.7.8.24.6), "The completion of a cp{.reduce}.async.bulk operation is followed by an
 implicit generic-async proxy fence" (§9.7.8.24.2), item 3 of §9.7.13.15.16.  P1's acquire wait
 that sees phase 0 complete sees the copied value through the generic proxy.  Forbidden.''',
 'x=1; s=0;', [(S0, ['mbarrier.init.shared.b64 [bar], 1','mbarrier.expect_tx.relaxed.cta.shared.b64 [bar], 4','bar.sync 0',BULK,'mbarrier.arrive.shared.b64 %r1, [bar]']),
          (S1, ['bar.sync 0','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','ld.shared.u32 %r0, [s]'])],
 'exists (1:p=1 /\\ 1:r0=0)', 'No', 'ISA §9.7.8.24.2, §9.7.8.24.6, §9.7.13.15.16 item 3')
T('cp.async.bulk-src-no-proxy-fence',
 '''A generic store to x, then a bulk copy reading x in the async proxy.  "Accessing the same
 memory location across multiple proxies needs a cross-proxy fence. For the async proxy,
 fence.proxy.async should be used" (§9.7.8.24.2).  Without it the copy may read the old value.''',
 'x=0; s=0;', [(S0, ['mbarrier.init.shared.b64 [bar], 1','st.global.u32 [x], 1',BULK,'mbarrier.arrive.expect_tx.shared.b64 %r1, [bar], 4','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','ld.shared.u32 %r0, [s]'])],
 'exists (0:p=1 /\\ 0:r0=0)', 'Ok', 'ISA §9.7.8.24.2')
T('cp.async.bulk-src-proxy-fence',
 '''As cp.async.bulk-src-no-proxy-fence with fence.proxy.async.global between the store and the
 copy: the generic write precedes the async read (§9.7.13.4: ".async ... the memory ordering is
 established between the async proxy and the generic proxy").  Forbidden.''',
 'x=0; s=0;', [(S0, ['mbarrier.init.shared.b64 [bar], 1','st.global.u32 [x], 1','fence.proxy.async.global',BULK,'mbarrier.arrive.expect_tx.shared.b64 %r1, [bar], 4','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','ld.shared.u32 %r0, [s]'])],
 'exists (0:p=1 /\\ 0:r0=0)', 'No', 'ISA §9.7.8.24.2, §9.7.13.4')
T('cp.async.bulk-src-proxy-fence-wrong-space',
 '''As cp.async.bulk-src-proxy-fence with fence.proxy.async.shared::cta: "The memory ordering is
 limited only to operations performed on objects in the state space specified"; x is global.
 Allowed.''',
 'x=0; s=0;', [(S0, ['mbarrier.init.shared.b64 [bar], 1','st.global.u32 [x], 1','fence.proxy.async.shared::cta',BULK,'mbarrier.arrive.expect_tx.shared.b64 %r1, [bar], 4','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','ld.shared.u32 %r0, [s]'])],
 'exists (0:p=1 /\\ 0:r0=0)', 'Ok', 'ISA §9.7.13.4')
T('MP+st.async',
 '''st.async from P0 in CTA 0 to shared memory of P1's CTA 1, completing on P1's mbarrier: "The
 store operation in st.async is treated as a weak memory operation and the complete_tx operation
 on the mbarrier has .release semantics at the .cluster scope" (§9.7.8.12).  P1 initialises the
 barrier, publishes it (fence.mbarrier_init + cluster barrier), expects 4 bytes and waits with
 .acquire.cluster.  Its own arrive.expect_tx is .cluster too: the complete-tx may come first
 (tx-count may be negative, §9.7.13.15.2) and the phase then completes at P1's arrive, which
 must be morally strong with the complete-tx for the chain of atomic operations to carry the
 observation (§8.9.2 item 2; see MP+st.async.arrive-cta).  Forbidden.''',
 's=0;', [(C0, ['barrier.cluster.arrive.aligned','barrier.cluster.wait.aligned','st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [s], 1, [bar]']),
          (C1, ['mbarrier.init.shared::cta.b64 [bar], 1','fence.mbarrier_init.release.cluster','barrier.cluster.arrive.relaxed.aligned','barrier.cluster.wait.aligned','mbarrier.arrive.expect_tx.release.cluster.shared.b64 %r1, [bar], 4','mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p, [bar], 0','ld.shared::cta.u32 %r0, [s]'])],
 'exists (1:p=1 /\\ 1:r0=0)', 'No', 'ISA §9.7.8.12')
T('MP+red.async',
 '''red.async.relaxed.cluster with an mbarrier: "The reduce operation is a relaxed memory
 operation. The complete-tx operation on the mbarrier has .release semantics at .cluster scope"
 (§9.7.13.7).  After P1's acquire wait sees the phase complete, the reduction is visible.''',
 's=0;', [(C0, ['barrier.cluster.arrive.aligned','barrier.cluster.wait.aligned','red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [s], 1, [bar]']),
          (C1, ['mbarrier.init.shared::cta.b64 [bar], 1','fence.mbarrier_init.release.cluster','barrier.cluster.arrive.relaxed.aligned','barrier.cluster.wait.aligned','mbarrier.arrive.expect_tx.release.cluster.shared.b64 %r1, [bar], 4','mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p, [bar], 0','ld.shared::cta.u32 %r0, [s]'])],
 'exists (1:p=1 /\\ 1:r0=0)', 'No', 'ISA §9.7.13.7')

T('MP+st.async.arrive-cta',
 '''As MP+st.async with P1's arrive.expect_tx at the default .cta scope.  When P0's complete-tx
 (.release.cluster) comes first and P1's arrive completes the phase, the arrive reads the
 complete-tx but they are not morally strong (the .cta scope does not include P0's thread,
 §8.7), so the complete-tx is not in observation order before the wait (§8.9.2) and P1 may read
 the old value of s.  Allowed under the scoped model.''',
 's=0;', [(C0, ['barrier.cluster.arrive.aligned','barrier.cluster.wait.aligned','st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [s], 1, [bar]']),
          (C1, ['mbarrier.init.shared::cta.b64 [bar], 1','fence.mbarrier_init.release.cluster','barrier.cluster.arrive.relaxed.aligned','barrier.cluster.wait.aligned','mbarrier.arrive.expect_tx.shared.b64 %r1, [bar], 4','mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p, [bar], 0','ld.shared::cta.u32 %r0, [s]'])],
 'exists (1:p=1 /\\ 1:r0=0)', 'Ok', 'ISA §8.7, §8.9.2, §9.7.8.12')

T('MP+cp.async.wait_all+bar.sync',
 '''P0 copies x into the shared s with cp.async, waits for it (wait_all) and meets P1 at bar.sync;
 P1 then reads s.  The wait makes the copy's write part of P0's program order before the barrier,
 which synchronizes the two threads (§8.9.4 item 2).  Forbidden.''',
 'x=1; s=0;', [(S0, ['cp.async.ca.shared.global [s], [x], 4','cp.async.wait_all','bar.sync 0']),
          (S1, ['bar.sync 0','ld.shared.u32 %r0, [s]'])],
 'exists (1:r0=0)', 'No', 'ISA §9.7.8.24.3, §8.9.4')
T('MP+cp.async+bar.sync-no-wait',
 '''As MP+cp.async.wait_all+bar.sync without the wait: "No other synchronization mechanisms
 described in Memory Consistency Model can be used to guarantee the completion of the
 asynchronous copy operations" (§9.7.8.24.3): the barrier does not order the copy.  Allowed.''',
 'x=1; s=0;', [(S0, ['cp.async.ca.shared.global [s], [x], 4','bar.sync 0']),
          (S1, ['bar.sync 0','ld.shared.u32 %r0, [s]'])],
 'exists (1:r0=0)', 'Ok', 'ISA §9.7.8.24.3')
T('MP+fence.proxy.async+cp.async.bulk',
 '''The canonical cross-proxy pattern: P0 writes x in the generic proxy, executes
 fence.proxy.async and meets P1 at bar.sync; P1 (same CTA) copies x with cp.async.bulk (an
 async-proxy read) and waits for the copy.  The generic write precedes the async read through
 the proxy fence (§9.7.8.24.2: 'For the async proxy, fence.proxy.async should be used to
 synchronize memory between generic proxy and the async proxy').  Forbidden.''',
 'x=0; s=0;', [(S0, ['st.global.u32 [x], 1','fence.proxy.async','bar.sync 0']),
          (S1, ['mbarrier.init.shared.b64 [bar], 1','bar.sync 0',BULK,'mbarrier.arrive.expect_tx.shared.b64 %r1, [bar], 4','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','ld.shared.u32 %r0, [s]'])],
 'exists (1:p=1 /\\ 1:r0=0)', 'No', 'ISA §9.7.8.24.2')
T('MP+cp.async.bulk-no-proxy-fence',
 '''As MP+fence.proxy.async+cp.async.bulk without the proxy fence: the barrier orders the generic
 write before the copy, but across proxies that is not enough (§8.9.5 proxy-preserved base
 causality, §9.7.8.24.2).  Allowed.''',
 'x=0; s=0;', [(S0, ['st.global.u32 [x], 1','bar.sync 0']),
          (S1, ['mbarrier.init.shared.b64 [bar], 1','bar.sync 0',BULK,'mbarrier.arrive.expect_tx.shared.b64 %r1, [bar], 4','mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','ld.shared.u32 %r0, [s]'])],
 'exists (1:p=1 /\\ 1:r0=0)', 'Ok', 'ISA §9.7.8.24.2, §8.9.5')
T('LB+fence.release+fence.acquire',
 '''Load buffering with a release fence before each store and an acquire fence after each
 load: whichever load reads the other thread's store makes the patterns synchronize, and the
 other load is then before the store it would read in causality order (§8.10.6).  Forbidden.''',
 'x=0; y=0;', [('P0@cta 0,gpu 0', ['ld.relaxed.gpu.global.u32 %r0, [x]','fence.acquire.gpu','fence.release.gpu','st.relaxed.gpu.global.u32 [y], 1']),
          ('P1@cta 1,gpu 0', ['ld.relaxed.gpu.global.u32 %r1, [y]','fence.acquire.gpu','fence.release.gpu','st.relaxed.gpu.global.u32 [x], 1'])],
 'exists (0:r0=1 /\\ 1:r1=1)', 'No', 'ISA §9.7.13.4, §8.10.6')
T('IRIW+fence.acquire',
 '''IRIW with acquire fences between the readers' loads: acquire fences synchronize with release
 patterns only, and the writers have none; only fence.sc orders the two writes for all
 readers (§8.9.3).  Allowed.''',
 'x=0; y=0;', [('P0@cta 0,gpu 0', ['st.relaxed.gpu.global.u32 [x], 1']),
          ('P1@cta 1,gpu 0', ['st.relaxed.gpu.global.u32 [y], 1']),
          ('P2@cta 2,gpu 0', ['ld.relaxed.gpu.global.u32 %r0, [x]','fence.acquire.gpu','ld.relaxed.gpu.global.u32 %r1, [y]']),
          ('P3@cta 3,gpu 0', ['ld.relaxed.gpu.global.u32 %r0, [y]','fence.acquire.gpu','ld.relaxed.gpu.global.u32 %r1, [x]'])],
 'exists (2:r0=1 /\\ 2:r1=0 /\\ 3:r0=1 /\\ 3:r1=0)', 'Ok', 'ISA §9.7.13.4, §8.9.3')
T('SB+mbar.relaxed',
 '''SB+mbar with both arrives .relaxed: no release pattern, so nothing is visible after the
 phase.  Allowed.''',
 'x=0; y=0;', [(S0, MBINIT+['st.global.u32 [x], 1','mbarrier.arrive.relaxed.cta.shared.b64 %r0, [bar]','mbarrier.test_wait.shared.b64 %p, [bar], %r0','ld.global.u32 %r2, [y]']),
          (S1, ['bar.sync 0','st.global.u32 [y], 1','mbarrier.arrive.relaxed.cta.shared.b64 %r1, [bar]','mbarrier.test_wait.shared.b64 %p, [bar], %r1','ld.global.u32 %r3, [x]'])],
 'exists (0:p=1 /\\ 1:p=1 /\\ 0:r2=0 /\\ 1:r3=0)', 'Ok', 'ISA §9.7.13.15.13 .relaxed')

T('MP+mbar.spin',
 '''The waiting loop of the §9.7.13.15.16 examples: P1 spins on try_wait.parity until phase 0
 completes, then reads x.  Every execution that leaves the loop has seen P0's release arrive, so
 x is 1.  Forbidden (the spin-loop reduction keeps the loop finite).''',
 'x=0;', [(S0, ['mbarrier.init.shared.b64 [bar], 1','bar.sync 0','st.global.u32 [x], 1','mbarrier.arrive.shared.b64 %r0, [bar]']),
          (S1, ['bar.sync 0','L: mbarrier.try_wait.parity.shared.b64 %p, [bar], 0','@!%p bra L','ld.global.u32 %r2, [x]'])],
 'exists (1:r2=0)', 'No', 'ISA §9.7.13.15.16 Example 1b')
T('MP+fence.proxy.async-generic.release+barrier.cluster',
 '''The release half of the §9.7.13.4 example 'Release local barrier state via async proxy':
 fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster before a relaxed cluster
 arrive.  Its release fence covers P0's write to its CTA's shared memory (.sync_restrict::
 shared::cta), which P1 in the other CTA reads after the cluster barrier.  Forbidden.''',
 's=0;', [(C0, ['st.shared::cta.u32 [s], 1','fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster','barrier.cluster.arrive.relaxed','barrier.cluster.wait']),
          (C1, ['barrier.cluster.arrive','barrier.cluster.wait','ld.shared::cluster.u32 %r0, [s]'])],
 'exists (1:r0=0)', 'No', 'ISA §9.7.13.4 example')
T('MP+fence.proxy.async-generic.release+barrier.cluster-global',
 '''As MP+fence.proxy.async-generic.release+barrier.cluster with the data in global memory,
 which the restricted release does not cover.  Allowed.''',
 'x=0;', [(C0, ['st.global.u32 [x], 1','fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster','barrier.cluster.arrive.relaxed','barrier.cluster.wait']),
          (C1, ['barrier.cluster.arrive','barrier.cluster.wait','ld.global.u32 %r0, [x]'])],
 'exists (1:r0=0)', 'Ok', 'ISA §9.7.13.4 .sync_restrict')

man=['suite: async','description: "The newer synchronization mechanisms of PTX (ISA 8.4 §8.9.1.1, §9.7.8.12, §9.7.8.24, newer §9.7.13.3-4, §9.7.13.7, §9.7.13.15): mbarrier, barrier.cluster, fence.acquire/.release and restricted fences, cp.async, cp.async.bulk and the async proxy, st.async, red.async, mmio; each verdict argued in the test from the text"','tests:']
for (name, doc, init, threads, cond, expect, source) in tests:
    fn=name.replace('/','_').replace('::','-')+'.litmus'
    open(os.path.join(D,fn),'w').write(render(name, doc, init, threads, cond))
    man.append('  - file: '+fn); man.append('    expect: { ptx: %s }'%expect); man.append('    source: "%s"'%source)
open(os.path.join(D,'manifest.yaml'),'w').write('\n'.join(man)+'\n')
print(len(tests))
