/// The names of this machine's own loopback interface: the only hosts a secret may travel to in the clear.
public enum Loopback {
    public static func isHost(_ host: String) -> Bool { ["127.0.0.1", "localhost", "::1"].contains(host) }
}
