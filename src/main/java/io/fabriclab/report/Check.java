package io.fabriclab.report;

/**
 * One line of the verdict: what was checked, the outcome, and the evidence (the numbers that
 * decided it).
 */
public record Check(String area, String name, Status status, String evidence) {
}
