package replicant.wasm;

import org.teavm.jso.JSExport;

/**
 * The entry class of the TeaVM JAVASCRIPT build (what runs in Node: the core as JavaScript): the exports of
 * docs/protocol.md "WebAssembly exports". create returns 0 for a bad configuration; lastError
 * then names the problem. The others return null for an unknown handle.
 */
public final class JsExports {
    private JsExports() {}

    @JSExport
    public static int create(String configJson) {
        return Exports.create(configJson);
    }

    @JSExport
    public static String lastError() {
        return Exports.lastError();
    }

    @JSExport
    public static String step(int handle, String eventJson) {
        return Exports.step(handle, eventJson);
    }

    @JSExport
    public static String inspect(int handle) {
        return Exports.inspect(handle);
    }

    @JSExport
    public static String stats(int handle) {
        return Exports.stats(handle, "java-teavm-js");
    }

    @JSExport
    public static void destroy(int handle) {
        Exports.destroy(handle);
    }
}
