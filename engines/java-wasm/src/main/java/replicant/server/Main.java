package replicant.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;

import replicant.core.Config;

/**
 * replicant-server CONFIG.json --id N: one node of a Replicant cluster over TCP
 * (docs/protocol.md, "Native servers"). A bad command line, configuration file, id or address
 * ends the process with status 2 and a message naming the problem.
 */
public final class Main {
    private Main() {}

    public static void main(String[] argv) {
        StopSignals.watch();
        try {
            ServerConfig.Args args = ServerConfig.parseArgs(argv);
            byte[] text;
            try {
                text = Files.readAllBytes(Paths.get(args.configPath));
            } catch (IOException | RuntimeException e) {
                throw new ServerConfig.BadConfig("cannot read configuration " + args.configPath + ": " + e);
            }
            ServerConfig cfg;
            try {
                cfg = ServerConfig.parse(text);
            } catch (ServerConfig.BadConfig e) {
                throw new ServerConfig.BadConfig("bad configuration " + args.configPath + ": " + e.getMessage());
            }
            if (args.id >= cfg.peers.size()) {
                throw new ServerConfig.BadConfig("bad id " + args.id + ": the configuration lists " + cfg.peers.size()
                        + " peers (ids 0.." + (cfg.peers.size() - 1) + ")");
            }
            new Server(cfg, args).run();
        } catch (ServerConfig.BadConfig | Config.ConfigException e) {
            System.err.println("replicant-server: " + e.getMessage());
            System.exit(2);
        } catch (IOException e) {
            System.err.println("replicant-server: " + e.getMessage());
            System.exit(1);
        }
    }
}
