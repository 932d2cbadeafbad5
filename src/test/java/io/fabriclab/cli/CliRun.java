package io.fabriclab.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;

/** Runs a fabriclab command in-process and keeps its exit code and output. */
record CliRun(int code, String out, String err) {
    static CliRun of(String... args) {
        CommandLine cl = Main.commandLine(args); // as `fabriclab` builds it: only the named subcommand
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
