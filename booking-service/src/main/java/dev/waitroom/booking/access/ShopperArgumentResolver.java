package dev.waitroom.booking.access;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** Hands the {@link Shopper} verified by {@link AdmissionInterceptor} to shop handlers. */
final class ShopperArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Shopper.class;
    }

    @Override
    public Object resolveArgument(
            MethodParameter parameter,
            ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest,
            WebDataBinderFactory binderFactory) {
        Object shopper =
                webRequest.getAttribute(AdmissionInterceptor.SHOPPER_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
        if (shopper == null) {
            // A handler asked for a shopper outside the guarded routes: refuse rather than trust.
            throw new ProblemException(ProblemType.ADMISSION_TOKEN_REQUIRED, "an admission token is required");
        }
        return shopper;
    }
}
