import OpenAPIRuntime

#if canImport(OpenAPIURLSession)
    import OpenAPIURLSession
#else
    import OpenAPIAsyncHTTPClient
#endif

/// The HTTP transport of the platform: URLSession on Apple platforms, AsyncHTTPClient elsewhere.
enum DefaultTransport {
    static func make() -> any ClientTransport {
        #if canImport(OpenAPIURLSession)
            URLSessionTransport()
        #else
            AsyncHTTPClientTransport()
        #endif
    }
}
