package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;

/**
 * One training step of a Megatron-style job on the fabric's GPUs (docs/model.md, Training step):
 * tensor parallelism (TP) inside a server over NVLink, pipeline parallelism (PP) across servers
 * with a 1F1B schedule, data parallelism (DP) across servers with gradient buckets reduced while
 * the last micro-batch's backward pass runs, and expert parallelism (EP) for a mixture of experts.
 * Compute is timed from the model's FLOPs and the GPU's achieved throughput; communication is put
 * on the fabric and simulated.
 *
 * <p>Ranks are laid out as Megatron does by default (TP fastest, then DP, then PP): GPU number
 * tp + TP (dp + DP pp) in fabric order (servers in fabric order, GPUs 0..g-1 in each), so a TP
 * group is one server's GPUs, a DP group the same GPU of consecutive servers (one rail) and a
 * pipeline's stages DP servers apart.
 *
 * @param name             the job's name (labels its flows)
 * @param model            the model
 * @param tp               tensor-parallel size (at most the GPUs of a server, a divisor of them)
 * @param pp               pipeline stages (a divisor of the layers)
 * @param dp               data-parallel replicas
 * @param ep               expert-parallel size (a divisor of dp; 1 for a dense model)
 * @param achievedTflops   what one GPU achieves on this model, TFLOP/s (ignored when computeUsPerMicroBatch > 0)
 * @param computeUsPerMicroBatch forward + backward of one micro-batch on one GPU, microseconds; 0: from FLOPs
 * @param overlapGradients gradient buckets reduced during the last backward pass (DDP / ZeRO) or after it
 * @param bucketBytes      gradient bucket size; 0: Megatron-LM's rule ({@link #megatronBucketBytes})
 * @param distributedOptimizer ZeRO-1 / Megatron's distributed optimizer: reduce-scatter of gradients,
 *                         all-gather of parameters after the step, instead of one all-reduce
 * @param gradientBytesPerParameter bytes per gradient element reduced across DP
 */
public record TrainingJob(String name, Model model, int tp, int pp, int dp, int ep, double achievedTflops,
                          double computeUsPerMicroBatch, boolean overlapGradients, long bucketBytes,
                          boolean distributedOptimizer, int gradientBytesPerParameter) implements Workload {

    /**
     * A transformer: parameters (all of them), active parameters per token (a dense model: all;
     * a mixture of experts: what one token passes through), expert parameters (0 dense), layers,
     * hidden size, sequence length, global and micro batch in sequences, experts and experts per
     * token (top-k).
     */
    public record Model(String name, long parameters, long activeParameters, long expertParameters, int layers,
                        int hidden, int sequence, int globalBatch, int microBatch, int experts, int topK) {
        public Model {
            require("parameters", parameters, 1, 100_000_000_000_000L);
            require("activeParameters", activeParameters, 1, parameters);
            require("expertParameters", expertParameters, 0, parameters);
            require("layers", layers, 1, 10_000);
            require("hidden", hidden, 1, 1_000_000);
            require("sequence", sequence, 1, 10_000_000);
            require("globalBatch", globalBatch, 1, 100_000_000);
            require("microBatch", microBatch, 1, globalBatch);
            require("experts", experts, 0, 100_000);
            require("topK", topK, experts == 0 ? 0 : 1, Math.max(0, experts));
            if (experts == 0 && expertParameters != 0) {
                throw new IllegalArgumentException("model.expertParameters: a dense model (experts 0) has none, got "
                        + expertParameters);
            }
        }

        public boolean moe() {
            return experts > 0;
        }

        /**
         * Training FLOPs per token, forward and backward, without recomputation: 6 N_active for the
         * weights plus 12 L h s for attention (Chowdhery et al., PaLM, 2022, appendix B; Kaplan et
         * al. 2020 for the 6N rule).
         */
        public double flopsPerToken() {
            return 6.0 * activeParameters + 12.0 * layers * hidden * (double) sequence;
        }
    }

    /** Megatron-style presets of common sizes (GPT-3-class shapes, as in Narayanan et al., SC'21, table 1). */
    public static final Map<String, Model> PRESETS = presets();

    private static Map<String, Model> presets() {
        Map<String, Model> m = new LinkedHashMap<>();
        // GPT-2 small (Radford et al. 2019: 124 M parameters, 12 layers, 768 hidden, 1,024 context; a
        // 512-sequence batch, about 0.5 M tokens, as nanoGPT trains it); GPT-3 1.3B, 7B-class
        // (Llama-2-7B shape), 13B, GPT-3 175B; a 8x7B-class mixture of experts.
        m.put("gpt2-124m", new Model("gpt2-124m", 124_000_000L, 124_000_000L, 0, 12, 768, 1024, 512, 1, 0, 0));
        m.put("gpt-1.3b", new Model("gpt-1.3b", 1_300_000_000L, 1_300_000_000L, 0, 24, 2048, 2048, 512, 1, 0, 0));
        m.put("llama-7b", new Model("llama-7b", 6_700_000_000L, 6_700_000_000L, 0, 32, 4096, 4096, 1024, 1, 0, 0));
        m.put("gpt-13b", new Model("gpt-13b", 13_000_000_000L, 13_000_000_000L, 0, 40, 5120, 2048, 1024, 1, 0, 0));
        m.put("gpt-175b", new Model("gpt-175b", 175_000_000_000L, 175_000_000_000L, 0, 96, 12288, 2048, 1536, 1, 0, 0));
        m.put("moe-8x7b", new Model("moe-8x7b", 46_700_000_000L, 12_900_000_000L, 45_100_000_000L, 32, 4096, 4096,
                1024, 1, 8, 2));
        return Map.copyOf(m);
    }

    /** Bytes of one activation or activation gradient element (bf16). */
    public static final int ACTIVATION_BYTES = 2;
    /** PyTorch DDP's default gradient bucket (bucket_cap_mb = 25), for a user who trains with it. */
    public static final long PYTORCH_DDP_BUCKET_BYTES = 25L * 1000 * 1000;
    /** The default: 0, Megatron-LM's own bucket rule ({@link #megatronBucketBytes}). */
    public static final long DEFAULT_BUCKET_BYTES = 0;
    /** Megatron-LM reduces gradients in fp32 when training in bf16 (accumulate_allreduce_grads_in_fp32). */
    public static final int DEFAULT_GRADIENT_BYTES = 4;

    public TrainingJob {
        require("parallelism.tp", tp, 1, 1024);
        require("parallelism.pp", pp, 1, 100_000);
        require("parallelism.dp", dp, 1, 1_000_000);
        require("parallelism.ep", ep, 1, 1_000_000);
        if (!(computeUsPerMicroBatch >= 0) || computeUsPerMicroBatch > 1e9) {
            throw new IllegalArgumentException("gpu.computeUsPerMicroBatch: 0 (from FLOPs) or up to 1e9 us, got "
                    + computeUsPerMicroBatch);
        }
        if (computeUsPerMicroBatch == 0 && (!(achievedTflops > 0) || achievedTflops > 100_000)) {
            throw new IllegalArgumentException("gpu.achievedTflops: above 0 and at most 100000 TFLOP/s, got "
                    + achievedTflops);
        }
        require("bucketBytes", bucketBytes, 0, 1L << 40);
        require("gradientBytesPerParameter", gradientBytesPerParameter, 1, 8);
        if (model.layers() % pp != 0) {
            throw new IllegalArgumentException("parallelism.pp: " + pp + " stages do not divide the model's "
                    + model.layers() + " layers");
        }
        if (dp % ep != 0) {
            throw new IllegalArgumentException("parallelism.ep: " + ep + " does not divide dp " + dp
                    + " (experts are spread over data-parallel ranks, as Megatron does)");
        }
        if (ep > 1 && !model.moe()) {
            throw new IllegalArgumentException("parallelism.ep: " + ep + " needs a mixture-of-experts model (experts > 0)");
        }
        if (model.moe() && model.experts() % ep != 0) {
            throw new IllegalArgumentException("parallelism.ep: " + ep + " does not divide the model's " + model.experts()
                    + " experts");
        }
        if (model.globalBatch() % ((long) model.microBatch() * dp) != 0) {
            throw new IllegalArgumentException("model.globalBatch: " + model.globalBatch() + " is not a multiple of "
                    + "microBatch x dp = " + (long) model.microBatch() * dp);
        }
    }

    /**
     * Dense bf16 tensor-core peak per GPU, TFLOP/s, from the datasheets: A100 SXM 312, H100 SXM 989
     * and H200 SXM 989 (their datasheets give 624 / 1,979 with sparsity, dense is half), B200 2,250
     * (DGX B200 datasheet: 72 PFLOPS FP8 training for 8 GPUs with sparsity, so 4.5 dense FP8 and
     * 2.25 dense bf16 per GPU).
     */
    public static final Map<String, Double> PEAK_BF16_TFLOPS = Map.of("A100", 312.0, "H100", 989.0, "H200", 989.0,
            "B200", 2250.0);
    /**
     * Model FLOPs utilisation taken when the achieved rate is not given: 52 %, what Megatron-LM
     * achieved at scale on A100s (163 of 312 TFLOP/s, Narayanan et al., SC'21, 1T-parameter run).
     */
    public static final double DEFAULT_MFU = 0.52;

    /**
     * A job on {@code fabric} with what is not given filled in as a user of Megatron would: TP and
     * PP by model size as Megatron-LM's published configurations, DP the rest; the achieved rate {@link #DEFAULT_MFU} of the
     * servers' GPU's peak; the global batch rounded up to a multiple of micro batch x DP.
     */
    public static TrainingJob on(Fabric fabric, String name, Model model, Integer tp, Integer pp, Integer dp, int ep,
                                 double achievedTflops, double computeUs, boolean overlap, long bucketBytes,
                                 boolean distributedOptimizer, int gradientBytes) {
        int total = Gpus.all(fabric).size();
        int perServer = 1;
        String gpuModel = ScaleUp.DEFAULT.gpu();
        for (Device s : fabric.servers()) {
            if (!Gpus.nics(fabric, s).isEmpty()) {
                perServer = Math.max(1, s.gpus());
                gpuModel = s.scaleUpOrDefault().gpu();
                break;
            }
        }
        // Narayanan et al., SC'21, table 1 (Megatron-LM's weak-scaling configurations): TP 1 up to
        // 1.7B parameters, 2 to 3.6B, 4 to 7.5B, 8 above; PP 1 up to 39B... taken by size bands.
        long params = model.parameters();
        int t = tp != null ? tp : Math.min(perServer, params < 2_000_000_000L ? 1 : params < 5_000_000_000L ? 2
                : params < 10_000_000_000L ? 4 : 8);
        while (tp == null && t > 1 && perServer % t != 0) {
            t--;
        }
        int p = pp != null ? pp : params < 30_000_000_000L ? 1 : params < 60_000_000_000L ? 2
                : params < 100_000_000_000L ? 4 : params < 200_000_000_000L ? 8 : 16;
        while (pp == null && p > 1 && model.layers() % p != 0) {
            p--;
        }
        int d = dp != null ? dp : Math.max(1, total / Math.max(1, t * p));
        double tflops = achievedTflops;
        if (computeUs == 0 && tflops == 0) {
            Double peak = PEAK_BF16_TFLOPS.get(gpuModel);
            tflops = DEFAULT_MFU * (peak != null ? peak : PEAK_BF16_TFLOPS.get(ScaleUp.DEFAULT.gpu()));
        }
        Model m = model;
        long unit = (long) m.microBatch() * d;
        if (m.globalBatch() % unit != 0) {
            long gb = (m.globalBatch() + unit - 1) / unit * unit;
            if (gb <= 100_000_000) {
                m = new Model(m.name(), m.parameters(), m.activeParameters(), m.expertParameters(), m.layers(),
                        m.hidden(), m.sequence(), (int) gb, m.microBatch(), m.experts(), m.topK());
            }
        }
        return new TrainingJob(name, m, t, p, d, ep, tflops, computeUs, overlap, bucketBytes, distributedOptimizer,
                gradientBytes);
    }

    static void require(String field, long v, long min, long max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(field + ": " + min + " to " + max + ", got " + v);
        }
    }

    public int gpus() {
        return tp * pp * dp;
    }

    /** Micro-batches per pipeline per step: global batch / (micro batch x dp). */
    public int microBatches() {
        return model.globalBatch() / (model.microBatch() * dp);
    }

    public long tokensPerStep() {
        return (long) model.globalBatch() * model.sequence();
    }

    /** Forward + backward of one micro-batch on one GPU, ps: the FLOPs of its share (1 / (TP PP)) at the achieved rate. */
    public long computePsPerMicroBatch() {
        if (computeUsPerMicroBatch > 0) {
            return Math.round(computeUsPerMicroBatch * 1e6);
        }
        double flops = model.flopsPerToken() * model.microBatch() * model.sequence() / ((double) tp * pp);
        return Math.round(flops / (achievedTflops * 1e12) * 1e12);
    }

    /** The compute a step needs on one GPU when nothing waits: m micro-batches. */
    public long computePsPerStep() {
        return computePsPerMicroBatch() * microBatches();
    }

    /** Gradient bytes one GPU reduces across DP per step. */
    public long gradientBytesPerGpu() {
        long dense = model.parameters() - model.expertParameters();
        double perGpu = dense / ((double) tp * pp) + model.expertParameters() / ((double) tp * pp * ep);
        return Math.max(1, Math.round(perGpu * gradientBytesPerParameter));
    }

    /**
     * Megatron-LM's distributed data parallel bucket when none is set: max(40 M, 1 M x DP)
     * parameters (megatron/core/distributed, DistributedDataParallelConfig.bucket_size), in
     * gradient bytes.
     */
    public long megatronBucketBytes() {
        return Math.max(40_000_000L, 1_000_000L * dp) * gradientBytesPerParameter;
    }

    /** The bucket in force: the one set, or Megatron's rule. */
    public long effectiveBucketBytes() {
        return bucketBytes > 0 ? bucketBytes : megatronBucketBytes();
    }

    /** Activation bytes at a stage boundary per micro-batch: b s h x 2 B. */
    public long activationBytes() {
        return (long) model.microBatch() * model.sequence() * model.hidden() * ACTIVATION_BYTES;
    }

    /** Why the job cannot run on {@code fabric}, or null. */
    public String problem(Fabric fabric) {
        List<String> gpus = Gpus.all(fabric);
        if (gpus.size() != gpus()) {
            return "parallelism: tp x pp x dp = " + tp + " x " + pp + " x " + dp + " = " + gpus()
                    + " GPUs, but the fabric has " + gpus.size() + " GPUs on connected servers";
        }
        for (Device s : fabric.servers()) {
            if (s.gpus() > 0 && !Gpus.nics(fabric, s).isEmpty()) {
                if (tp > s.gpus()) {
                    return "parallelism.tp: " + tp + " is larger than server " + s.id() + " (" + s.gpus()
                            + " GPUs); tensor parallelism stays inside a server's NVLink domain";
                }
                if (s.gpus() % tp != 0) {
                    return "parallelism.tp: " + tp + " does not divide server " + s.id() + "'s " + s.gpus() + " GPUs";
                }
            }
        }
        return null;
    }

    @Override
    public List<FlowSpec> flows(Fabric fabric) {
        String p = problem(fabric);
        if (p != null) {
            throw new IllegalArgumentException(p);
        }
        return build(fabric).tasks();
    }

    /**
     * The step's tasks and the collectives among them by label (for their bandwidth in results);
     * {@code steadyRings} when its rings are built in their steady state ({@link TaskGraph#steadyRings}).
     */
    public record Built(List<FlowSpec> tasks, Map<String, NcclCollective> collectives, boolean steadyRings) {
    }

    /**
     * Most tasks of a step with its rings step by step; a larger step (thousands of GPUs) is built
     * with steady rings, which take a ring's 2(n-1) steps as one transfer per position.
     */
    public static final int STEP_BY_STEP_TASKS = 4_000_000;

    public Built build(Fabric fabric) {
        return build(fabric, STEP_BY_STEP_TASKS);
    }

    /** {@link #build(Fabric)} with step-by-step rings up to {@code limit} tasks. */
    public Built build(Fabric fabric, int limit) {
        String p = problem(fabric);
        if (p != null) {
            throw new IllegalArgumentException(p);
        }
        try {
            Builder b = new Builder(fabric, false, limit);
            List<FlowSpec> tasks = b.build();
            return new Built(tasks, Map.copyOf(b.collectives), false);
        } catch (TaskGraph.TooManyTasks e) {
            Builder b = new Builder(fabric, true, Integer.MAX_VALUE);
            List<FlowSpec> tasks = b.build();
            return new Built(tasks, Map.copyOf(b.collectives), true);
        }
    }

    /** The GPU of (tp rank t, dp rank d, stage s). */
    static int rank(int t, int d, int s, int tp, int dp) {
        return t + tp * (d + dp * s);
    }

    private final class Builder {
        final Fabric fabric;
        final List<String> gpus;
        final TaskGraph g;
        final int m = microBatches();
        final long fwdPs;
        final long bwdPs;
        final Map<String, NcclCollective> collectives = new LinkedHashMap<>();
        /** Per GPU: what its next op waits for (1F1B order is a chain on each GPU). */
        final Map<String, List<String>> last = new HashMap<>();

        Builder(Fabric fabric, boolean steady, int limit) {
            this.fabric = fabric;
            this.gpus = Gpus.all(fabric);
            this.g = new TaskGraph(fabric, io.fabriclab.model.QosProfile.RDMA_PRIORITY).withSteadyRings(steady)
                    .withLimit(limit);
            long c = computePsPerMicroBatch();
            // Backward takes twice the forward's FLOPs (2 of the 6 N per token forward, 4 backward).
            this.fwdPs = Math.max(1, c / 3);
            this.bwdPs = Math.max(1, c - fwdPs);
        }

        String gpu(int t, int d, int s) {
            return gpus.get(rank(t, d, s, tp, dp));
        }

        List<FlowSpec> build() {
            // Dependencies across stages point both ways (forward down, backward up); ids are fixed
            // names, so tasks are added stage by stage in 1F1B order: warm-up forwards, steady
            // forward-backward pairs, cool-down backwards. All DP replicas of a stage share the order.
            for (int s = 0; s < pp; s++) {
                int warm = Math.min(pp - s - 1, m);
                for (int i = 0; i < warm; i++) {
                    pass(true, s, i);
                }
                for (int i = 0; i < m - warm; i++) {
                    pass(true, s, warm + i);
                    pass(false, s, i);
                }
                for (int i = m - warm; i < m; i++) {
                    pass(false, s, i);
                }
            }
            gradients();
            return g.tasks();
        }

        String id(String what, int s, int d, int i, int t) {
            return name + "/" + what + "/s" + s + "/d" + d + "/m" + i + "/t" + t;
        }

        private List<String> chain(String gpu, List<String> more) {
            List<String> a = new ArrayList<>(more);
            a.addAll(last.getOrDefault(gpu, List.of()));
            return a;
        }

        /**
         * A forward or backward pass of micro-batch {@code i} on stage {@code s}, every DP replica:
         * compute, the stage's TP all-reduces over NVLink, the expert all-to-alls, the send to the
         * next (forward) or previous (backward) stage.
         */
        private void pass(boolean forward, int s, int i) {
            String dir = forward ? "F" : "B";
            boolean split = !forward && i == m - 1 && overlapGradients && dp > 1;
            int layers = model.layers() / pp;
            Map<String, List<String>> done = new HashMap<>();
            for (int d = 0; d < dp; d++) {
                Map<Integer, List<String>> computed = new HashMap<>();
                for (int t = 0; t < tp; t++) {
                    String gpu = gpu(t, d, s);
                    List<String> in = new ArrayList<>();
                    if (forward && s > 0) {
                        in.add(id("actrecv", s, d, i, t));
                    } else if (!forward && s + 1 < pp) {
                        in.add(id("gradrecv", s, d, i, t));
                    }
                    if (split) {
                        // The last backward in bucket-sized pieces: bucket b is reduced once piece b is through.
                        int buckets = buckets();
                        String prev = null;
                        for (int b = 0; b < buckets; b++) {
                            List<String> a = b == 0 ? chain(gpu, in) : List.of(prev);
                            long piece = bwdPs / buckets + (b < bwdPs % buckets ? 1 : 0);
                            prev = g.compute(gpu, Math.max(1, piece), name + ":compute", id("B" + b, s, d, i, t), a);
                        }
                        computed.put(t, List.of(prev));
                    } else {
                        computed.put(t, List.of(g.compute(gpu, forward ? fwdPs : bwdPs, name + ":compute",
                                id(dir, s, d, i, t), chain(gpu, in))));
                    }
                }
                Map<Integer, List<String>> reduced = tpAllReduce("tp" + dir, s, d, i,
                        (long) layers * activationBytes(), 2 * layers, computed);
                for (int t = 0; t < tp; t++) {
                    done.put(gpu(t, d, s), reduced.get(t));
                }
            }
            if (ep > 1 && model.moe()) {
                // Dispatch and combine of every layer of the stage, as one all-to-all per EP group and
                // TP rank: each token's hidden state to its top-k experts and back (2 per pass).
                long bytes = Math.max(1, (long) layers * activationBytes() / tp * model.topK() * 2);
                for (int base = 0; base < dp; base += ep) {
                    for (int t = 0; t < tp; t++) {
                        List<String> group = new ArrayList<>();
                        for (int d = base; d < base + ep; d++) {
                            group.add(gpu(t, d, s));
                        }
                        NcclCollective a2a = new NcclCollective(NcclCollective.Op.ALL_TO_ALL,
                                name + "-ep" + dir + "-s" + s + "d" + base + "t" + t + "m" + i, group,
                                Math.max(bytes, group.size()), NcclCollective.Algorithm.AUTO, 1,
                                io.fabriclab.model.QosProfile.RDMA_PRIORITY);
                        collectives.put(a2a.label(), a2a);
                        Map<String, List<String>> out = a2a.build(g, done::get);
                        for (String r : group) {
                            List<String> d2 = new ArrayList<>(done.get(r));
                            d2.addAll(out.get(r));
                            done.put(r, d2);
                        }
                    }
                }
            }
            for (int d = 0; d < dp; d++) {
                for (int t = 0; t < tp; t++) {
                    last.put(gpu(t, d, s), done.get(gpu(t, d, s)));
                }
                if (forward && s + 1 < pp) {
                    sendBoundary("act", s, s + 1, d, i, done);
                } else if (!forward && s > 0) {
                    sendBoundary("grad", s, s - 1, d, i, done);
                }
            }
        }

        /**
         * TP all-reduce over NVLink of {@code bytes} per GPU, {@code count} of them back to back, as
         * one ring transfer per GPU (2(t-1)/t of the bytes to its neighbour, 2(t-1) hops' latency
         * per all-reduce).
         */
        private Map<Integer, List<String>> tpAllReduce(String what, int s, int d, int i, long bytes, int count,
                                                       Map<Integer, List<String>> after) {
            if (tp == 1) {
                return after;
            }
            ScaleUp su = Gpus.server(fabric, gpu(0, d, s)).scaleUpOrDefault();
            long perGpu = Math.max(1, bytes * 2L * (tp - 1) / tp);
            long latency = (long) count * 2 * (tp - 1) * su.latencyPs();
            Map<Integer, List<String>> done = new HashMap<>();
            for (int t = 0; t < tp; t++) {
                String id = id(what, s, d, i, t);
                g.nvlink(gpu(t, d, s), gpu((t + 1) % tp, d, s), perGpu, latency, name + ":tp", id, after.get(t));
            }
            for (int t = 0; t < tp; t++) {
                // A GPU has the sum once its own part is through and its neighbour's has arrived.
                done.put(t, List.of(id(what, s, d, i, t), id(what, s, d, i, (t - 1 + tp) % tp)));
            }
            return done;
        }

        /**
         * Stage boundary of micro-batch {@code i}: each TP rank sends 1/t of the activation (or its
         * gradient) to its counterpart on the other stage, through its own NIC (same rail); the
         * receiving TP group gathers the whole over NVLink (Megatron's scatter-gather).
         */
        private void sendBoundary(String what, int from, int to, int d, int i, Map<String, List<String>> after) {
            long part = Math.max(1, activationBytes() / tp);
            for (int t = 0; t < tp; t++) {
                String id = tp == 1 ? id(what + "recv", to, d, i, t) : id(what + "send", from, d, i, t);
                g.send(gpu(t, d, from), gpu(t, d, to), part, name + ":pp", id, after.get(gpu(t, d, from)));
            }
            if (tp == 1) {
                return;
            }
            ScaleUp su = Gpus.server(fabric, gpu(0, d, to)).scaleUpOrDefault();
            for (int t = 0; t < tp; t++) {
                long bytes = Math.max(1, part * (tp - 1));
                g.nvlink(gpu(t, d, to), gpu((t + 1) % tp, d, to), bytes, (tp - 1) * su.latencyPs(), name + ":pp",
                        id(what + "recv", to, d, i, t),
                        List.of(id(what + "send", from, d, i, t), id(what + "send", from, d, i, (t - 1 + tp) % tp)));
            }
        }

        int buckets() {
            long b = effectiveBucketBytes();
            return (int) Math.max(1, Math.min(64, (gradientBytesPerGpu() + b - 1) / b));
        }

        /**
         * Data-parallel gradients: per stage and TP rank, the DP group reduces its gradients bucket by
         * bucket (all-reduce, or reduce-scatter then an all-gather of the updated bf16 parameters
         * with the distributed optimizer); a communicator runs one collective at a time.
         */
        private void gradients() {
            if (dp == 1) {
                return;
            }
            int buckets = buckets();
            long total = gradientBytesPerGpu();
            int m1 = m - 1;
            for (int s = 0; s < pp; s++) {
                for (int t = 0; t < tp; t++) {
                    List<String> group = new ArrayList<>();
                    for (int d = 0; d < dp; d++) {
                        group.add(gpu(t, d, s));
                    }
                    Map<String, List<String>> prev = null;
                    for (int b = 0; b < buckets; b++) {
                        long bytes = Math.max(total / buckets + (b < total % buckets ? 1 : 0), group.size());
                        final int bb = b;
                        final int ss = s;
                        final int tt = t;
                        final Map<String, List<String>> before = prev;
                        java.util.function.Function<String, List<String>> after = r -> {
                            int d = group.indexOf(r);
                            List<String> a = new ArrayList<>();
                            if (overlapGradients) {
                                a.add(id("B" + bb, ss, d, m1, tt));
                            } else {
                                a.addAll(last.get(r));
                            }
                            if (before != null) {
                                a.addAll(before.get(r));
                            }
                            return a;
                        };
                        NcclCollective.Op op = distributedOptimizer ? NcclCollective.Op.REDUCE_SCATTER
                                : NcclCollective.Op.ALL_REDUCE;
                        NcclCollective c = new NcclCollective(op, name + "-dp-s" + s + "t" + t + "b" + b, group, bytes,
                                NcclCollective.Algorithm.AUTO, NcclCollective.DEFAULT_CHANNELS_PER_RAIL,
                                io.fabriclab.model.QosProfile.RDMA_PRIORITY);
                        collectives.put(c.label(), c);
                        prev = c.build(g, after);
                    }
                    if (distributedOptimizer) {
                        long params = Math.max(group.size(), total / gradientBytesPerParameter * 2);
                        final Map<String, List<String>> before = prev;
                        NcclCollective c = new NcclCollective(NcclCollective.Op.ALL_GATHER, name + "-dp-s" + s + "t" + t
                                + "-params", group, params, NcclCollective.Algorithm.AUTO,
                                NcclCollective.DEFAULT_CHANNELS_PER_RAIL, io.fabriclab.model.QosProfile.RDMA_PRIORITY);
                        collectives.put(c.label(), c);
                        c.build(g, r -> {
                            List<String> a = new ArrayList<>(before.get(r));
                            a.addAll(last.get(r));
                            return a;
                        });
                    }
                }
            }
        }
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "training step of %s: tp %d, pp %d, dp %d, ep %d, %d micro-batches",
                model.name(), tp, pp, dp, ep, microBatches());
    }
}
