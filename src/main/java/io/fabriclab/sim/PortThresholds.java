package io.fabriclab.sim;

import io.fabriclab.model.WredEcn;

/**
 * The congestion thresholds in force on one switch or NIC port during a run, as the live view
 * draws them on a queue chart: the ECN curve of the RDMA class (null when that class is not
 * marked) on the port as an egress, and PFC XOFF / XON on the port as an ingress (0 when the port
 * does not send PAUSE, e.g. a NIC).
 */
public record PortThresholds(WredEcn ecn, long xoffBytes, long xonBytes) {
}
