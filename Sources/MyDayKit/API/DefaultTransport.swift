import OpenAPIRuntime

#if canImport(OpenAPIURLSession)
    import OpenAPIURLSession
#else
    import AsyncHTTPClient
    import OpenAPIAsyncHTTPClient
#endif

/// The HTTP transport of the platform: URLSession on Apple platforms, AsyncHTTPClient elsewhere.
public enum DefaultTransport {
    /// A new transport; `LiveMyDayClient` uses one unless it is given another (to measure or record, say).
    /// `deadline` bounds a whole request on Linux (a long-lived change feed needs more than the usual minute); on
    /// Apple platforms URLSession's own idle timeout applies, which the feed's keep-alive comments satisfy.
    public static func make(deadline: Duration = .seconds(60)) -> any ClientTransport {
        #if canImport(OpenAPIURLSession)
            URLSessionTransport()
        #else
            AsyncHTTPClientTransport(
                configuration: .init(client: .myDayClient, timeout: .seconds(deadline.components.seconds)))
        #endif
    }
}

#if !canImport(OpenAPIURLSession)
    extension HTTPClient {
        /// The HTTP client of MyDayKit on Linux: it fails at once when the server cannot be reached, because the
        /// upload queue retries with its own backoff (AsyncHTTPClient's default retries until the request's deadline).
        static let myDayClient: HTTPClient = {
            var configuration = HTTPClient.Configuration()
            configuration.timeout = .init(connect: .seconds(10))
            configuration.connectionPool.retryConnectionEstablishment = false
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }()
    }
#endif
