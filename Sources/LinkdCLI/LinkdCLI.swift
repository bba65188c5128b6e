/// Placeholder.
public enum LinkdCLI {
    public static func main() async {}
}
