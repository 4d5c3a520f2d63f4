package dev.waitroom.web;

import dev.waitroom.contract.ops.Operator;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** A handler parameter of type {@link Operator}: who the ops check authenticated (see {@link AuthenticatedOperator}). */
final class OperatorArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Operator.class;
    }

    @Override
    public Operator resolveArgument(
            MethodParameter parameter,
            ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest,
            WebDataBinderFactory binderFactory) {
        return AuthenticatedOperator.require(webRequest.getNativeRequest(HttpServletRequest.class));
    }
}
